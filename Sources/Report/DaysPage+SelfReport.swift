import Platform
import Presentation
import SelfReport
import SessionLog

/// The days report's sections on what the wearer reported: what the check-ins and the answers to
/// "Was that stress?" reveal (`StressPatterns`, with the trigger chart), mood by day beside the
/// resting values, and the DASS-21 results over the days.
extension DaysPage {
    /// The patterns of the report's sessions, the diary's check-ins and the states before denied episodes.
    public static func patterns(_ report: DaysReport) -> StressPatterns {
        StressPatterns(
            sessions: report.sessions.map { session in
                StressPatterns.Session(
                    start: session.start, utcOffset: Int(LocalTime.offset(at: session.start)), episodes: session.stressEpisodes,
                    statesBefore: report.statesBefore[session.id] ?? [:])
            },
            checkIns: report.sessions.flatMap { $0.checkIns.map { ($0.time, $0.checkIn) } } + report.diary)
    }

    static func selfReportSection(_ report: DaysReport) -> String {
        let patterns = patterns(report)
        guard patterns.episodes > 0 else { return "" }
        var html = "<h2>What your check-ins and answers show</h2><p class=\"lead\">Stress episodes of these days, each described by the check-in within 30 minutes of its start, and your answers to “Was that stress?” (<code>hrvmon label</code>).</p>"
        if let chart = TriggerChart.chart(patterns) {
            html += "<figure>\(chart)<figcaption>Minutes of stress by what you were doing, where and with whom (the check-in nearest each episode's start); hover a bar for its episodes and how many you confirmed.</figcaption></figure>"
        }
        return html + "<ul>" + patterns.lines.map { "<li>" + $0.htmlEscaped + "</li>" }.joined() + "</ul>"
    }

    /// Each day with a check-in or a resting value: its mean mood beside resting ln RMSSD and the
    /// normal range, days outside the range marked. Empty without check-ins.
    static func moodSection(_ report: DaysReport) -> String {
        var moods: [String: [Int]] = [:]
        for (time, checkIn) in report.sessions.flatMap({ $0.checkIns.map { ($0.time, $0.checkIn) } }) + report.diary.map({ ($0.time, $0.checkIn) }) {
            moods[WallClock.day(time), default: []].append(checkIn.mood.rawValue)
        }
        guard !moods.isEmpty else { return "" }
        let none = "—"
        let rows = report.days.reversed().compactMap { day -> [ReportPage.Cell]? in
            let dayMoods = moods[day.day.text] ?? []
            guard !dayMoods.isEmpty || day.resting != nil else { return nil }
            let mean = dayMoods.isEmpty ? nil : Double(dayMoods.reduce(0, +)) / Double(dayMoods.count)
            let band = day.readiness?.range
            let outside: String = if let value = day.resting?.lnRMSSD, let band {
                value < band.lowerBound ? "below" : value > band.upperBound ? "above" : ""
            } else { "" }
            return [
                ReportPage.Cell(LocalTime.shortDate(day.day), kind: "time"),
                ReportPage.Cell(mean.map { Formatting.fixed($0, digits: 1) + " (" + (Mood(rawValue: Int($0.rounded()))?.words ?? "") + ")" } ?? none, kind: "number"),
                ReportPage.Cell(String(dayMoods.count), kind: "number"),
                ReportPage.Cell(day.resting.map { Formatting.fixed($0.lnRMSSD, digits: 2) } ?? none, kind: "number"),
                ReportPage.Cell(band.map { Formatting.fixed($0.lowerBound, digits: 2) + "–" + Formatting.fixed($0.upperBound, digits: 2) } ?? none, kind: "number"),
                ReportPage.Cell(outside.isEmpty ? "" : "⚑ \(outside) the range", kind: outside.isEmpty ? nil : "outside"),
            ]
        }
        let headings = ["Day", "Mood (1–5)", "Check-ins", "Resting ln RMSSD", "Normal range", ""].enumerated().map {
            ReportPage.Cell($0.element, kind: (1...4).contains($0.offset) ? "number" : nil)
        }
        return "<h2>Mood and resting HRV by day</h2><p class=\"lead\">The mean mood of each day's check-ins (1 very low … 5 very good) beside the day's resting ln RMSSD and the normal range of the 60 days before it; ⚑ marks a resting value outside it.</p>"
            + ReportPage.table(caption: "Newest first; days with neither a check-in nor a resting value are left out.", headings: headings, rows: rows)
    }

    /// The DASS-21 results taken in these days, oldest first. Empty without one.
    static func dass21Section(_ report: DaysReport) -> String {
        guard !report.dass21.isEmpty else { return "" }
        let rows = report.dass21.map { result, time in
            [ReportPage.Cell(WallClock.day(time), kind: "time")] + DASS21.Scale.allCases.map { scale in
                ReportPage.Cell("\(result.score(scale)) \(result.severity(scale).rawValue)", kind: "number")
            }
        }
        let headings = [ReportPage.Cell("Date")] + DASS21.Scale.allCases.map { ReportPage.Cell($0.name, kind: "number") }
        return "<h2>DASS-21 over time</h2><p class=\"lead\">Depression, anxiety and stress over the past week as you answered them (<code>hrvmon dass21</code>), each 0–42 with its published severity label. \(DASS21.notADiagnosis.htmlEscaped)</p>"
            + ReportPage.table(caption: "Source: " + DASS21.source, headings: headings, rows: rows)
    }
}
