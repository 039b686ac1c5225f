#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex and one condition on it, for state shared with threads that block (libcurl's
/// transfer threads, which cannot await): `lock`/`unlock` around the state, `wait` inside them.
/// A timed wait measures its deadline as `MonotonicClock.deadline` gives it.
///
/// `@unchecked Sendable`: its only state is the two pthread objects, allocated once, never
/// reassigned, and made for use from many threads (their own calls synchronise); Swift's
/// `Mutex` has no condition to wait on, which a thread blocked in a C callback needs.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A new mutex and condition; timed waits measure the monotonic clock.
    package init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal, the lock held.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal until `deadline` (`MonotonicClock.deadline`), the lock held; false if
    /// the deadline came first.
    package func wait(until deadline: timespec) -> Bool {
        var deadline = deadline
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    package func signal() { pthread_cond_signal(condition) }

    package func broadcast() { pthread_cond_broadcast(condition) }
}
