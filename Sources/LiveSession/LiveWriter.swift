import LivePipeline
import Platform
import Presentation
import SessionLog

/// A live session on stdout, line by line: the session records as JSON Lines (`--format jsonl`,
/// the README contract) or text lines for people. Every line is flushed as it is written.
public final class LiveWriter: SessionOutput {
    public let format: MonitorFormat
    private var output = FileStream.standardOutput

    public init(format: MonitorFormat) {
        self.format = format
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        switch format {
        case .jsonl:
            guard let text = line.text() else { return }
            output.write(text)
        case .text:
            guard let text = SessionText.line(for: event) else { return }
            output.write(WallClock.timeOfDay(time) + "  " + text + "\n")
        }
        output.flush()
    }

    public func finish(_ summary: SessionSummary) {
        switch format {
        case .jsonl:
            output.write(SessionRecords.summary(summary).serialized + "\n")
        case .text:
            output.write(SessionText.summaryLine(summary) + "\n")
        }
        output.flush()
    }
}
