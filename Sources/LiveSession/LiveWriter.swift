import LivePipeline
import Platform
import Presentation
import SessionLog

/// A live session on stdout, line by line: the session records as JSON Lines (`--format jsonl`,
/// the contract in docs/reference/session-files.md) or text lines for people. Every line is flushed as it is written.
public final class LiveWriter: SessionOutput {
    public let format: MonitorFormat
    /// The sensor the session follows, when several share stdout: a `sensor` field ends each
    /// JSON line, and text lines start with it. The session file never has it.
    public let sensor: String?
    /// How text lines say when (the demo: time into the session).
    public let eventTime: EventTime
    private var output = FileStream.standardOutput

    public init(format: MonitorFormat, sensor: String? = nil, time: EventTime = .timeOfDay) {
        self.format = format
        self.sensor = sensor
        self.eventTime = time
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        switch format {
        case .jsonl:
            guard let text = line.text() else { return }
            output.write(labelled(json: text))
        case .text:
            guard let text = SessionText.line(for: event) else { return }
            // On a terminal wrapped to its width, continuations under the text; elsewhere whole.
            let head = eventTime.label(time) + "  " + labelled(text: "")
            for line in Formatting.wrap(line: head + text, width: Terminal.outputColumns, hanging: head.count) {
                output.write(line + "\n")
            }
        }
        output.flush()
    }

    public func finish(_ summary: SessionSummary) {
        switch format {
        case .jsonl:
            output.write(labelled(json: SessionRecords.summary(summary).serialized + "\n"))
        case .text:
            // On a terminal the summary is wrapped to its width, as the dashboard leaves it.
            var lines = SessionText.summaryLines(summary, time: eventTime)
            lines[0] = labelled(text: lines[0])
            for line in SessionText.wrapped(lines, width: Terminal.outputColumns) { output.write(line + "\n") }
        }
        output.flush()
    }

    /// `line` (one JSON object and its newline) with the sensor as its last field.
    private func labelled(json line: String) -> String {
        guard let sensor, line.hasSuffix("}\n") else { return line }
        return line.dropLast(2) + ",\"sensor\":" + JSONObject.quoted(sensor) + "}\n"
    }

    private func labelled(text: String) -> String {
        sensor.map { "[\($0)]  " + text } ?? text
    }
}
