import HeartRateProtocol
import LivePipeline

/// What the session file keeps of a session's events (format version 2, docs/reference/
/// session-files.md): one `packet` line per notification that carried beats (`packet(_:at:)`,
/// written when it arrives, before the pipeline has made anything of it) instead of an `rr` line
/// per beat; no `nn` lines (the corrected timeline is replayed from the packets); a `metrics` line
/// every `metricsStep` seconds of session time; the accelerometer's seconds twenty to a
/// `motion_seconds` line (`MotionSecondsLine`); the ECG (`--ecg`) in `ecg` lines of two seconds
/// (`ECGLine`); every other event's line as `--format jsonl` prints it. The recorder feeds it a session's events; `SessionFileCompaction` a version 1 file's.
public struct SessionFileLines {
    /// Seconds of session time between `metrics` lines: enough for a chart at screen resolution
    /// (8,640 lines a day); docs/development/benchmarks.md has the sizes measured.
    public static let metricsStep = 10.0

    /// The step (`session_s` / `metricsStep`, rounded down) of the last metrics line kept.
    private var metricsKept: Double?
    /// The lines handed out so far that the live pipeline was given (`packet`, `error`, `gap`,
    /// `exercise`, `desk`): where each motion second falls among them.
    private var stepsWritten = 0
    /// The motion seconds not written yet.
    private var motion: [MotionSecondsLine.Second] = []
    /// The ECG samples not written yet.
    private var ecg = ECGLineBuffer()

    public init() {}

    /// The line of a notification that carried beats, received at `time`.
    public mutating func packet(_ measurement: HeartRateMeasurement, at time: Double) -> String {
        let due = dueMotion(at: time)
        stepsWritten += 1
        return due + SessionRecords.packet(measurement, at: time).serialized + "\n"
    }

    /// The lines to write for `event` at `time`, whose `--format jsonl` line is `line`; nil for none.
    /// A motion second waits for a full `motion_seconds` line, or for the first other line written
    /// `MotionSecondsLine.capacity` seconds after the oldest one that waits (a stream that stopped).
    public mutating func line(for event: SessionEvent, at time: Double, line: inout SessionLine) -> String? {
        let own: String?
        switch event {
        case .motion(let second):
            motion.append(MotionSecondsLine.Second(motion: second, time: MotionTime(time), stepsBefore: stepsWritten))
            return motion.count == MotionSecondsLine.capacity ? takeMotion() : nil
        case .live(.beat), .live(.placed): own = nil
        case .live(.metrics(let report)): own = keepsMetrics(at: report.sessionSeconds) ? line.text() : nil
        default: own = line.text()
        }
        guard let own else { return nil }
        let due = dueMotion(at: time)
        switch event {
        case .live(.malformed), .live(.gap), .live(.exercise), .desk: stepsWritten += 1
        default: break
        }
        return due + own
    }

    /// The lines due with the ECG samples `run` ("" for none): a line each two seconds, and the
    /// samples waiting when a run does not follow on from them.
    public mutating func ecg(_ run: ECGSamples) -> String {
        ecg.add(run)
    }

    /// The motion seconds and ECG samples still waiting, as lines ("" for none): before the summary.
    public mutating func finish() -> String {
        takeMotion() + ecg.take()
    }

    /// Whether the `metrics` line at `sessionSeconds` is kept: the first of each step.
    public mutating func keepsMetrics(at sessionSeconds: Double) -> Bool {
        let step = (sessionSeconds / Self.metricsStep).rounded(.down)
        if let kept = metricsKept, step <= kept { return false }
        metricsKept = step
        return true
    }

    private mutating func dueMotion(at time: Double) -> String {
        guard let oldest = motion.first, time - oldest.time.seconds >= Double(MotionSecondsLine.capacity) else { return "" }
        return takeMotion()
    }

    private mutating func takeMotion() -> String {
        guard !motion.isEmpty else { return "" }
        defer { motion.removeAll(keepingCapacity: true) }
        return MotionSecondsLine.text(motion, stepsWritten: stepsWritten)
    }
}
