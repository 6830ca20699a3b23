import Glibc

/// Seconds on the monotonic clock, optionally running faster than real time (`--speed`).
public struct MonotonicClock {
    public let speed: Double
    private let origin: Double

    public init(speed: Double = 1) {
        self.speed = speed
        origin = EventLoop.now()
    }

    /// Seconds since creation, scaled by `speed`.
    public var elapsed: Double { (EventLoop.now() - origin) * speed }

    /// Sleeps until `elapsed` reaches `target` (in scaled seconds).
    public func sleep(until target: Double) {
        let remaining = (target - elapsed) / speed
        guard remaining > 0 else { return }
        var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - remaining.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&request, &left) == -1 && errno == EINTR && !Interruption.requested { request = left }
    }
}
