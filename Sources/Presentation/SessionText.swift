import HRV
import LivePipeline

/// A running session's events and summary in words, as the text lines and the dashboard show them.
public enum SessionText {
    /// The text line of an event; nil for events shown only in JSON (beats).
    public static func line(for event: SessionEvent) -> String? {
        switch event {
        case .live(let event): line(for: event)
        case .link(let status):
            status.text + (status.retryIn.map { " (retry in \(Formatting.fixed($0, digits: 1)) s)" } ?? "")
        case .sensor(.identity(let name, let address)): "sensor \(name ?? address) (\(address))"
        case .sensor(.bodySensorLocation(let location)): "worn on the \(location)"
        case .sensor(.batteryLevel(let percent)): "battery \(percent) %"
        case .notice(let message): message
        case .note(let text): "note: \(text)"
        // Every second: for the dashboard's motion line and the session file, not the log.
        case .motion: nil
        // As often as input starts and stops: the dashboard shows it, the session file keeps it.
        case .desk: nil
        case .checkIn(let checkIn): "check-in: \(checkIn.summary)"
        case .label(let label): "stress episode \(label.episode) labelled: \(label.answer.words)"
        case .resonanceStep(let mark):
            if let rate = mark.rate {
                "resonance step \(mark.index + 1): \(Formatting.fixed(rate, digits: 1)) breaths a minute for \(Formatting.duration(mark.stepSeconds)), the first \(Formatting.duration(mark.settleSeconds)) settling"
            } else {
                "resonance assessment: \(Formatting.count(mark.index, "step")) done"
            }
        }
    }

    private static func line(for event: LiveEvent) -> String? {
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

    /// The totals, and the session's RMSSD and heart rate: `600 beats, 0 malformed notifications
    /// in 10:00 · RMSSD 38.2 ms · HR 61 bpm`.
    public static func summary(_ summary: SessionSummary) -> String {
        var text = "\(Formatting.count(summary.beats, "beat")), \(Formatting.count(summary.malformed, "malformed notification")) in \(Formatting.duration(summary.seconds))"
        if let metrics = summary.metrics {
            text += " · RMSSD \(number(metrics.rmssd, 1)) ms · HR \(number(metrics.meanHR, 0)) bpm"
        }
        return text
    }

    /// Each exercise's effect as before → after: `breathing 6:00–8:00: RMSSD 20.1 → 45.3 ms, HR 80
    /// → 63 bpm (the minute before → the two minutes after)`; for an exercise the session ended
    /// too soon after, why there is none.
    public static func effects(_ summary: SessionSummary) -> [String] {
        summary.effects.map { effect in
            let span = "breathing \(Formatting.clock(effect.start))–\(Formatting.clock(effect.end)): "
            if let shortfall = effect.shortfall { return span + "effect not measured: " + shortfall }
            return span
                + "RMSSD \(number(effect.before.rmssd, 1)) → \(number(effect.after.rmssd, 1)) ms, "
                + "HR \(number(effect.before.meanHR, 0)) → \(number(effect.after.meanHR, 0)) bpm "
                + "(the minute before → the two minutes after)"
                + (effect.coherence.meanScore.map { "; " + Coherence.text($0) + " during" } ?? "")
        }
    }

    private static func number(_ value: Double?, _ digits: Int) -> String {
        value.map { Formatting.fixed($0, digits: digits) } ?? "–"
    }

    /// The summary as the last text lines: when it ended and the totals, then each exercise's
    /// effect, indented.
    public static func summaryLines(_ summary: SessionSummary, time: EventTime) -> [String] {
        [time.label(summary.time) + "  " + Self.summary(summary)] + effects(summary).map { "          " + $0 }
    }

    /// Summary lines for a terminal `width` columns wide (nil: no terminal, as they are): each
    /// wrapped at its words, continuations indented past the time.
    public static func wrapped(_ lines: [String], width: Int?) -> [String] {
        lines.flatMap { Formatting.wrap(line: $0, width: width, hanging: 12) }
    }
}

extension StressAssessment {
    /// The state as shown: `calibrating` while the session baseline is measured.
    public var label: String { isCalibrating ? "calibrating" : state.rawValue }
}

extension ExerciseEffect {
    /// RMSSD and heart rate before, during and after, in words; for an exercise the session ended
    /// too soon after, why there is no after.
    public var summary: String {
        func span(_ statistics: IntervalStatistics) -> String {
            "RMSSD \(statistics.rmssd.map { Formatting.fixed($0, digits: 1) } ?? "–") ms, HR \(statistics.meanHR.map { Formatting.fixed($0, digits: 0) } ?? "–") bpm"
        }
        let after = shortfall.map { "after not measured: " + $0 } ?? "after " + span(after)
        return "exercise effect: before \(span(before)); during \(span(during)); \(after)"
            + (coherence.meanScore.map { "; " + Coherence.text($0) + " during" } ?? "")
    }

    /// Why the effect is not measured — the session ended before the minutes after the exercise
    /// were in — or nil when it is.
    public var shortfall: String? {
        let reached = observedUntil ?? start
        guard !isSettled(at: reached) else { return nil }
        let needs = "it needs \(Formatting.duration(Self.settle)) after the exercise"
        guard reached > end else { return "the session ended during the exercise; " + needs }
        return "the session ended \(Formatting.duration(reached - end)) after the exercise; " + needs
    }
}

extension LinkStatus {
    /// The state in words: `connected`, `no adapter`.
    public var stateText: String { state.rawValue.replacing("_", with: " ") }

    /// The state and why: `disconnected: out of range`.
    public var text: String { stateText + (detail.isEmpty ? "" : ": " + detail) }
}
