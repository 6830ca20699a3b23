import Glibc

/// A POSIX thread running work beside the caller's, joined when its result is needed.
public struct JoinableThread: ~Copyable {
    private let thread: pthread_t

    /// Starts `body` on a new thread; the error is pthread_create's.
    public init(_ body: @escaping @Sendable () -> Void) throws(Errno) {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            let work = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue() as! Work
            work.body()
            return nil
        }, work)
        guard result == 0 else {
            Unmanaged<AnyObject>.fromOpaque(work).release()
            throw Errno(code: result)
        }
        self.thread = thread
    }

    /// Waits for the body to return.
    public consuming func join() {
        pthread_join(thread, nil)
    }
}

/// A mutex with one condition variable, for threads that hand work to each other: `wait` sleeps
/// (no spinning) until another thread calls `signal` under the lock.
public final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Releases the lock until signalled, then holds it again; only inside `withLock`, and in a
    /// loop that re-checks what it waits for (wake-ups may be spurious).
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes the waiting threads; inside `withLock`.
    public func signal() {
        pthread_cond_broadcast(condition)
    }
}
