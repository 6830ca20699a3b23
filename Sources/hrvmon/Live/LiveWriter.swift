import ArgumentParser
import BlueZ
import Platform
import HRV
import HeartRateProtocol
import LivePipeline
import SessionLog

/// A live session on stdout, line by line: the session records as JSON Lines (`--format jsonl`,
/// the README contract) or text lines for people. Every line is flushed as it is written.
final class LiveWriter: SessionOutput {
    let format: MonitorFormat
    private var output = FileStream.standardOutput

    init(format: MonitorFormat) {
        self.format = format
    }

    func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        switch format {
        case .jsonl:
            guard let text = line.text() else { return }
            output.write(text)
        case .text:
            guard let text = Self.text(for: event) else { return }
            output.write(WallClock.timeOfDay(time) + "  " + text + "\n")
        }
        output.flush()
    }

    func finish(_ summary: SessionSummary) {
        switch format {
        case .jsonl:
            output.write(SessionRecords.summary(summary).serialized + "\n")
        case .text:
            output.write(WallClock.timeOfDay(summary.time) + "  " + Self.text(summary) + "\n")
        }
        output.flush()
    }

    /// The text line of an event; nil for events shown only in JSON (beats).
    static func text(for event: SessionEvent) -> String? {
        switch event {
        case .live(let event): text(for: event)
        case .link(let status):
            status.text + (status.retryIn.map { " (retry in \(Formatting.fixed($0, digits: 1)) s)" } ?? "")
        case .sensor(.identity(let name, let address)): "sensor \(name ?? address) (\(address))"
        case .sensor(.bodySensorLocation(let location)): "worn on the \(location)"
        case .sensor(.batteryLevel(let percent)): "battery \(percent) %"
        case .notice(let message): message
        case .note(let text): "note: \(text)"
        }
    }

    private static func text(for event: LiveEvent) -> String? {
        switch event {
        case .beat, .placed: nil
        case .metrics(let report):
            "HR \(number(report.rmssdWindow.metrics?.meanHR, 0)) bpm  RMSSD \(number(report.rmssdWindow.metrics?.rmssd, 1)) ms  "
                + "SDNN \(number(report.sdnnWindow.metrics?.sdnn, 1)) ms  \(report.assessment.label)"
                + (report.assessment.level.map { "  level \(Int($0.rounded()))" } ?? "")
        case .malformed(let packet): "malformed notification (\(packet.count) so far): \(packet.error)"
        case .gap: "gap in the beats: no RR difference spans it"
        case .episode(let episode):
            "\(episode.kind.rawValue) from \(Formatting.clock(episode.start)) to \(Formatting.clock(episode.end))"
        case .suggestion(let suggestion):
            "\(suggestion.reason): try \(Formatting.fixed(suggestion.minutes, digits: 0)) min of \(suggestion.pattern.name) breathing. \(suggestion.tip)"
        case .exercise(let mark): "\(mark.pattern) breathing \(mark.kind.rawValue) at \(Formatting.clock(mark.sessionSeconds))"
        case .effect(let effect): effect.summary
        }
    }

    static func text(_ summary: SessionSummary) -> String {
        "\(Formatting.count(summary.beats, "beat")), \(Formatting.count(summary.malformed, "malformed notification")) in \(Formatting.duration(summary.seconds))"
    }

    private static func number(_ value: Double?, _ digits: Int) -> String {
        value.map { Formatting.fixed($0, digits: digits) } ?? "–"
    }
}

enum MonitorFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

extension StressAssessment {
    /// The state as shown: `calibrating` while the session baseline is measured.
    var label: String { isCalibrating ? "calibrating" : state.rawValue }
}

extension ExerciseEffect {
    /// RMSSD and heart rate before, during and after, in words.
    var summary: String {
        func span(_ statistics: IntervalStatistics) -> String {
            "RMSSD \(statistics.rmssd.map { Formatting.fixed($0, digits: 1) } ?? "–") ms, HR \(statistics.meanHR.map { Formatting.fixed($0, digits: 0) } ?? "–") bpm"
        }
        return "exercise effect: before \(span(before)); during \(span(during)); after \(span(after))"
    }
}

extension LinkStatus {
    /// The state in words: `connected`, `no adapter`.
    var stateText: String { state.rawValue.replacing("_", with: " ") }

    /// The state and why: `disconnected: out of range`.
    var text: String { stateText + (detail.isEmpty ? "" : ": " + detail) }
}
