import Platform
import SelfReport
import SessionLog

/// The days report's section on what the check-ins and the answers to "Was that stress?" reveal
/// (`StressPatterns`); none when the days had no stress episode.
extension DaysPage {
    static func selfReportSection(_ report: DaysReport) -> String {
        let patterns = StressPatterns(
            sessions: report.sessions.map { session in
                StressPatterns.Session(
                    start: session.start, utcOffset: Int(LocalTime.offset(at: session.start)),
                    episodes: session.stressEpisodes.map { ($0.start, $0.end, $0.answer) })
            },
            checkIns: report.sessions.flatMap { $0.checkIns.map { ($0.time, $0.checkIn) } })
        guard patterns.episodes > 0 else { return "" }
        return "<h2>What your check-ins and answers show</h2><p class=\"lead\">Stress episodes of these days, each described by the session's check-in within 30 minutes of its start, and your answers to “Was that stress?” (<code>hrvmon label</code>).</p><ul>"
            + patterns.lines.map { "<li>" + $0.htmlEscaped + "</li>" }.joined() + "</ul>"
    }
}
