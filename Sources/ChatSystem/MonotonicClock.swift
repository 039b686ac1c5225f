#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Nanoseconds on a clock that never jumps, for timeouts measured inside libcurl callbacks.
package enum MonotonicClock {
    package static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// The time `seconds` from now, as `pthread_cond_timedwait` takes it: on this clock where
    /// a condition can use it (glibc), else on the wall clock, which Darwin's conditions use.
    package static func deadline(after seconds: Double) -> timespec {
        #if canImport(Glibc)
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
        #else
            var now = timeval()
            gettimeofday(&now, nil)
            var deadline = timespec(tv_sec: now.tv_sec, tv_nsec: Int(now.tv_usec) * 1000)
        #endif
        let nanos = Int(deadline.tv_nsec) + Int(max(seconds, 0) * 1_000_000_000)
        deadline.tv_sec += nanos / 1_000_000_000
        deadline.tv_nsec = .init(nanos % 1_000_000_000)
        return deadline
    }
}
