import HRV
import Platform
import Presentation
import SelfReport
import SessionLog

/// The session page's table of what happened, in time order: episodes (a stress episode with its
/// answer to "Was that stress?"), breathing exercises and the suggestions made, notes, check-ins,
/// link losses.
public enum SessionEvents {
    public static func table(_ report: SessionReport) -> String {
        var rows: [(seconds: Double, order: Int, cells: [ReportPage.Cell])] = []
        func add(_ seconds: Double, _ time: String, _ tag: String, _ tagClass: String, _ details: String) {
            rows.append((seconds, rows.count, [ReportPage.Cell(time, kind: "time"), .tag(tag, class: tagClass), ReportPage.Cell(details)]))
        }
        var stressEpisodes = 0
        for episode in report.file.episodes {
            let peak = episode.peakLevel.map { ", peak level \(Formatting.fixed($0, digits: 0)) of 100" } ?? ""
            if episode.kind == .stress { stressEpisodes += 1 }
            add(episode.start, report.span(episode.start, episode.end), episode.kind == .stress ? "Stress" : "Activity", episode.kind.rawValue,
                Formatting.elapsed(episode.duration) + peak + (episode.kind == .stress ? answerText(report, episode: stressEpisodes) : ""))
        }
        for timed in report.file.checkIns {
            let seconds = report.timeline.seconds(at: timed.time)
            add(seconds, report.time(seconds), "Check-in", "note", timed.checkIn.summary)
        }
        for exercise in report.exercises {
            add(exercise.start, report.span(exercise.start, exercise.end), "Breathing", "exercise",
                "\(exercise.pattern), \(Formatting.elapsed(exercise.end - exercise.start))" + (effectText(exercise.effect).map { "; \($0)" } ?? ""))
        }
        for suggestion in report.file.suggestions {
            add(suggestion.sessionSeconds, report.time(suggestion.sessionSeconds), "Suggestion", "suggestion",
                "\(suggestion.pattern) breathing suggested: \(suggestion.reason)")
        }
        for note in report.notes {
            add(note.seconds, report.time(note.seconds), "Note \(note.number)", "note", note.text)
        }
        for gap in report.timeline.gaps {
            let start = report.clock(gap.position)
            add(gap.position, "\(WallClock.timeOfDay(start))–\(WallClock.timeOfDay(start + gap.length))", "No signal", "gap",
                Formatting.elapsed(gap.length) + (report.cause(of: gap).map { ": \($0)" } ?? ""))
        }
        guard !rows.isEmpty else { return "<p class=\"muted\">Nothing to list: no stress or activity episodes, exercises, notes or link losses.</p>" }
        rows.sort { ($0.seconds, $0.order) < ($1.seconds, $1.order) }
        return ReportPage.table(
            caption: "Times are local clock times on the session's timeline (see “How to read this report”).",
            headings: [ReportPage.Cell("Time"), ReportPage.Cell("Event"), ReportPage.Cell("Details")],
            rows: rows.map(\.cells))
    }

    /// `; was it stress? yes`, or how to answer.
    static func answerText(_ report: SessionReport, episode number: Int) -> String {
        guard let answer = report.file.answer(toEpisode: number) else {
            return "; was it stress? unanswered (`hrvmon label \(report.file.header.id):\(number) yes|no|unsure`)"
        }
        return "; was it stress? " + answer.words.lowercased()
    }

    /// `RMSSD 19 → 73 → 53 ms, heart rate 80 → 65 → 63 bpm (minute before → during → 2 min after)`.
    public static func effectText(_ effect: SessionFile.Effect?) -> String? {
        guard let effect else { return nil }
        func values(_ value: (SessionFile.Effect.Span) -> Double?, _ unit: String) -> String? {
            let spans = [effect.before, effect.during, effect.after].map { value($0).map { Formatting.fixed($0, digits: 0) } ?? "–" }
            return spans.allSatisfy { $0 == "–" } ? nil : spans.joined(separator: " → ") + " " + unit
        }
        let parts = [values(\.rmssd, "ms").map { "RMSSD " + $0 }, values(\.heartRate, "bpm").map { "heart rate " + $0 }].compactMap { $0 }
        guard !parts.isEmpty else { return nil }
        return parts.joined(separator: ", ") + " (the minute before → during → the 2 minutes after)"
            + (effect.coherence.map { "; " + Coherence.text($0) + " during" } ?? "")
    }
}
