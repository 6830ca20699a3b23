import LivePipeline
import SessionLog

/// The demo's session time: `speed` times faster than the wall, except while a breathing
/// exercise runs — the demo's or the user's — when it runs at real time (or slower, when the demo
/// is slower), so the pacer can be breathed with. An output of the session, it sees the
/// exercises start and stop.
public final class DemoClock: SessionOutput {
    public let speed: Double
    public private(set) var pace: Double
    private let now: () -> Double
    /// The session time and the wall time when the pace last changed.
    private var sessionAnchor: Double
    private var wallAnchor: Double
    /// Told when the pace changes: what was scheduled by session time must be scheduled again.
    public var onPaceChange: () -> Void = {}

    /// `start`: the session time now; `now`: the wall (monotonic) clock.
    public init(start: Double, speed: Double, now: @escaping () -> Double) {
        self.speed = speed
        pace = speed
        self.now = now
        sessionAnchor = start
        wallAnchor = now()
    }

    /// The session time now.
    public var time: Double { sessionAnchor + (now() - wallAnchor) * pace }

    /// When, on the wall clock, the session reaches `sessionTime` at the present pace.
    public func wallTime(of sessionTime: Double) -> Double { wallAnchor + (sessionTime - sessionAnchor) / pace }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        guard case .live(.exercise(let mark)) = event else { return }
        change(to: mark.kind == .started ? min(1, speed) : speed)
    }

    public func finish(_ summary: SessionSummary) {}

    private func change(to newPace: Double) {
        guard newPace != pace else { return }
        sessionAnchor = time
        wallAnchor = now()
        pace = newPace
        onPaceChange()
    }
}
