/// When to call `Device1.Connect` again after one failed. An LE Connect stays pending in the
/// controller until the sensor advertises or the kernel gives up (tens of seconds), so a Connect
/// that failed after waiting was no failure of ours: the sensor was away, and the next one goes out
/// at once so that it catches the sensor the moment it is back. Only a Connect refused sooner than
/// the back-off's delay (adapter trouble, "Operation already in progress", a rejected connection)
/// counts as a failure; attempts are then spaced by the doubling back-off. Pure.
public struct ConnectPacing: Equatable, Sendable {
    public private(set) var backoff: Backoff

    public init(initial: Double, maximum: Double) {
        backoff = Backoff(initial: initial, maximum: maximum)
    }

    /// Seconds to wait before the next attempt, for an attempt started at `started` that failed at
    /// `now`; 0 means at once.
    public mutating func delay(afterAttemptStartedAt started: Double, failedAt now: Double) -> Double {
        let elapsed = max(0, now - started)
        guard elapsed < backoff.delay else { return 0 }
        return backoff.next() - elapsed
    }

    /// Seconds to wait after any other failure (a refused StartNotify, a link we dropped ourselves
    /// because services never resolved or notifications stalled): the back-off's next delay.
    public mutating func delayAfterFailure() -> Double { backoff.next() }

    /// Notifications flow: the next trouble starts from the shortest delay again.
    public mutating func succeeded() { backoff.reset() }
}
