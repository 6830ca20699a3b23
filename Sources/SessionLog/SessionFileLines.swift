import LivePipeline

/// What the session file keeps of a session's events (format version 2, docs/reference/
/// session-files.md): one `packet` line per notification instead of an `rr` line per beat, no
/// `nn` lines (the corrected timeline is replayed from the packets), a `metrics` line every
/// `metricsStep` seconds of session time; every other event's line as `--format jsonl` prints it.
/// A notification's line is written once all its beats are in (`notificationEnded`), followed by
/// the lines its beats caused, so each notification is still one write. The recorder feeds it
/// events; `SessionFileCompaction` feeds it a version 1 file's lines.
public struct SessionFileLines {
    /// Seconds of session time between `metrics` lines: enough for a chart at screen resolution
    /// (8,640 lines a day); docs/development/benchmarks.md has the sizes measured.
    public static let metricsStep = 10.0

    /// What a line is to the file.
    public enum Entry {
        case beat(ReceivedBeat)
        /// A beat of the corrected timeline (`nn`): not kept.
        case corrected
        case metrics(sessionSeconds: Double)
        /// Any other line, kept as it is.
        case other
    }

    /// The beats of the notification under way.
    private var beats: [ReceivedBeat] = []
    /// Lines of events that came while its beats were in.
    private var held: [String] = []
    /// The step (`session_s` / `metricsStep`, rounded down) of the last metrics line kept.
    private var metricsKept: Double?

    public init() {}

    /// The lines to write now for `event`, whose `--format jsonl` line is `line`.
    public mutating func lines(for event: SessionEvent, line: inout SessionLine) -> [String] {
        let entry: Entry = switch event {
        case .live(.beat(let beat)): .beat(beat)
        case .live(.placed): .corrected
        case .live(.metrics(let report)): .metrics(sessionSeconds: report.sessionSeconds)
        default: .other
        }
        return lines(for: entry) { line.text() }
    }

    /// The lines to write now for a line that is `entry`; `text` gives the line, with its newline.
    public mutating func lines(for entry: Entry, text: () -> String?) -> [String] {
        switch entry {
        case .beat(let beat):
            if let first = beats.first, first.packet != beat.packet {
                let lines = notificationEnded()
                beats = [beat]
                return lines
            }
            beats.append(beat)
            return []
        case .corrected:
            return []
        case .metrics(let sessionSeconds):
            let step = (sessionSeconds / Self.metricsStep).rounded(.down)
            if let kept = metricsKept, step <= kept { return [] }
            metricsKept = step
        case .other:
            break
        }
        guard let text = text() else { return [] }
        if beats.isEmpty { return [text] }
        held.append(text)
        return []
    }

    /// The notification's lines once the pipeline is done with it: its packet, then what it caused.
    public mutating func notificationEnded() -> [String] {
        guard !beats.isEmpty else { return [] }
        let lines = [SessionRecords.packet(beats).serialized + "\n"] + held
        beats.removeAll(keepingCapacity: true)
        held.removeAll(keepingCapacity: true)
        return lines
    }
}
