#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs blocking work on a thread of its own, outside Swift's cooperative pool.
package enum DetachedThread {
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; returns false if no thread could be made.
    package static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        // `pthread_t` is an integer in glibc and a pointer (an optional out-parameter) on Darwin.
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let result = pthread_create(
            &thread, nil,
            { argument in
                // An optional in glibc's signature, not in Darwin's.
                let argument: UnsafeMutableRawPointer? = argument
                guard let argument else { return nil }
                Unmanaged<Work>.fromOpaque(argument).takeRetainedValue().body()
                return nil
            }, work)
        guard result == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        #if canImport(Glibc)
            pthread_detach(thread)
        #else
            if let thread { pthread_detach(thread) }
        #endif
        return true
    }
}
