import Platform
import BlueZ
import HRV
import LivePipeline

/// Everything a running session tells its outputs (stdout lines, dashboard, session file), in
/// the order it happened.
enum SessionEvent {
    /// What the pipeline made of the beats: beats, metrics, episodes, suggestions, exercises.
    case live(LiveEvent)
    case link(LinkStatus)
    case sensor(SensorFact)
    /// Something the user should know that is not an error of the data (a failed write, a bus lost).
    case notice(String)
    /// The user's own annotation (`hrvmon note`, the dashboard's `n`).
    case note(String)
}

/// What is known about the sensor, as it becomes known.
enum SensorFact: Equatable {
    case identity(name: String?, address: String)
    case bodySensorLocation(String)
    case batteryLevel(Int)
}

/// Where a running session's events go. Outputs are told every event in order, and the summary
/// once at the end.
protocol SessionOutput: AnyObject {
    /// `line` is the event's JSON line, for the outputs that write it.
    func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine)
    func finish(_ summary: SessionSummary)
}

/// The end-of-session totals every output reports.
struct SessionSummary {
    var time: Double
    /// Wall-clock (monotonic) length of the session.
    var seconds: Double
    var beats: Int
    var malformed: Int
    var metrics: TimeDomainMetrics?
    /// The baseline stress was judged against: the personal one, or what the session calibrated.
    var baseline: Baseline?
    var stressSeconds: Double
    var exercises: Int
}

/// An event's JSON line (`SessionRecords`), built once however many outputs write it: the
/// session file and `--format jsonl` write the same line for every beat.
struct SessionLine {
    private let event: SessionEvent
    private let time: Double
    private var built: String??

    init(_ event: SessionEvent, at time: Double) {
        self.event = event
        self.time = time
    }

    /// The line with its newline; nil for events without one.
    mutating func text() -> String? {
        if let built { return built }
        let text = SessionRecords.object(for: event, at: time).map { $0.serialized + "\n" }
        built = .some(text)
        return text
    }
}
