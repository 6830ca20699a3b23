import LivePipeline

/// An event's JSON line (`SessionRecords`), built once however many outputs write it: the
/// session file and `--format jsonl` write the same line for every beat.
public struct SessionLine {
    private let event: SessionEvent
    private let time: Double
    private var built: String??

    public init(_ event: SessionEvent, at time: Double) {
        self.event = event
        self.time = time
    }

    /// The line with its newline; nil for events without one.
    public mutating func text() -> String? {
        if let built { return built }
        let text = SessionRecords.object(for: event, at: time).map { $0.serialized + "\n" }
        built = .some(text)
        return text
    }
}
