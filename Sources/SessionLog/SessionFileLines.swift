import HeartRateProtocol
import LivePipeline

/// What the session file keeps of a session's events (format version 2, docs/reference/
/// session-files.md): one `packet` line per notification that carried beats (`packet(_:at:)`,
/// written when it arrives, before the pipeline has made anything of it) instead of an `rr` line
/// per beat; no `nn` lines (the corrected timeline is replayed from the packets); a `metrics` line
/// every `metricsStep` seconds of session time; every other event's line as `--format jsonl`
/// prints it. The recorder feeds it a session's events; `SessionFileCompaction` a version 1 file's.
public struct SessionFileLines {
    /// Seconds of session time between `metrics` lines: enough for a chart at screen resolution
    /// (8,640 lines a day); docs/development/benchmarks.md has the sizes measured.
    public static let metricsStep = 10.0

    /// The step (`session_s` / `metricsStep`, rounded down) of the last metrics line kept.
    private var metricsKept: Double?

    public init() {}

    /// The line of a notification that carried beats, received at `time`.
    public static func packet(_ measurement: HeartRateMeasurement, at time: Double) -> String {
        SessionRecords.packet(measurement, at: time).serialized + "\n"
    }

    /// The line to write for `event`, whose `--format jsonl` line is `line`; nil for none.
    public mutating func line(for event: SessionEvent, line: inout SessionLine) -> String? {
        switch event {
        case .live(.beat), .live(.placed): nil
        case .live(.metrics(let report)): keepsMetrics(at: report.sessionSeconds) ? line.text() : nil
        default: line.text()
        }
    }

    /// Whether the `metrics` line at `sessionSeconds` is kept: the first of each step.
    public mutating func keepsMetrics(at sessionSeconds: Double) -> Bool {
        let step = (sessionSeconds / Self.metricsStep).rounded(.down)
        if let kept = metricsKept, step <= kept { return false }
        metricsKept = step
        return true
    }
}
