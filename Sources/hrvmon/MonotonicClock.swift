import Glibc

/// Seconds on the monotonic clock, optionally running faster than real time (`--speed`).
struct MonotonicClock {
    let speed: Double
    private let origin: Double

    init(speed: Double = 1) {
        self.speed = speed
        origin = Self.now()
    }

    /// Seconds since creation, scaled by `speed`.
    var elapsed: Double { (Self.now() - origin) * speed }

    /// Sleeps until `elapsed` reaches `target` (in scaled seconds).
    func sleep(until target: Double) {
        let remaining = (target - elapsed) / speed
        guard remaining > 0 else { return }
        var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - remaining.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&request, &left) == -1 && errno == EINTR && !Interruption.requested { request = left }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// SIGINT / SIGTERM turned into a flag the main loop checks, so it can restore the terminal
/// and exit 0.
enum Interruption {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    static var requested: Bool { flag != 0 }

    static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in Interruption.flag = 1 }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a sleeping loop wakes at once
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started us with them blocked (a blocked mask survives exec).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }
}
