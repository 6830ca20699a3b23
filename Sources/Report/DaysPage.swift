import HRV
import Platform
import Presentation
import RealModule
import SessionLog

/// The report of several days: key figures, the daily trends (resting values against the
/// personal normal range, stress, sessions), stress by hour of day, and the sessions.
public enum DaysPage {
    public static func render(_ report: DaysReport, generated: Double) -> String {
        let charts = DailyCharts(report: report)
        let (first, last) = (report.days.first!.day, report.days.last!.day)
        var body = ReportPage.header(
            kicker: "hrvmon · \(report.days.count)-day report",
            title: report.days.count == 1 ? LocalTime.shortDate(last) + " \(last.year)" : "\(LocalTime.shortDate(first)) – \(LocalTime.shortDate(last)) \(last.year)",
            subtitle: "\(Formatting.count(report.sessions.count, "session")) · days are local calendar days (\(LocalTime.offsetName(at: generated)))")
        body += ReportPage.figures(figures(report), columns: 6)
        body += report.unreadable.map { ReportPage.warning("Session \($0.id) could not be read and is left out: \($0.reason)") }.joined()
        body += "<h2>Resting values</h2><p class=\"lead\">From the personal resting history: a day's morning check (<code>hrvmon check</code>) when it has one, otherwise its sessions' calibrations at rest and imported readings.</p>"
        body += "<div class=\"grid-2\"><figure>\(charts.lnRMSSD())<figcaption>ln RMSSD at rest (dots; a morning check when there was one); dashed: its 7-day rolling mean; shaded: the normal range, mean ± 1 SD of the 60 days before; ringed: days whose 7-day mean left the range (red below, blue above).</figcaption></figure>"
        body += "<figure>\(charts.restingHeartRate())<figcaption>Resting heart rate, bpm.</figcaption></figure></div>"
        body += "<h2>Stress and monitoring</h2>"
        body += "<div class=\"grid-2\"><figure>\(charts.stressMinutes())<figcaption>Minutes of stress per day, from the sessions' stress episodes.</figcaption></figure>"
        body += "<figure>\(charts.sessions())<figcaption>Sessions started per day.</figcaption></figure></div>"
        body += "<h2>Stress by hour of day</h2>"
        body += "<figure>\(StressHeatMap.chart(report))<figcaption>Minutes of stress in each local hour; hover a cell for its numbers.</figcaption></figure>"
        body += StressHeatMap.legend()
        body += selfReportSection(report)
        body += moodSection(report)
        body += dass21Section(report)
        body += "<h2>Sessions</h2>" + sessionTable(report)
        body += about(report)
        return ReportPage.document(title: "hrvmon report \(first.text) to \(last.text)", body: body, generated: generated)
    }

    public static func figures(_ report: DaysReport) -> [ReportPage.Figure] {
        let monitored = report.days.reduce(0) { $0 + $1.monitoredSeconds }
        let stress = report.days.reduce(0) { $0 + $1.stressSeconds }
        let restingDays = report.days.filter { $0.resting != nil }
        var figures = [
            ReportPage.Figure(
                label: "Sessions", value: String(report.sessions.count),
                detail: "on \(Formatting.count(report.days.filter { $0.sessions > 0 }.count, "day")) of \(report.days.count)"),
            ReportPage.Figure(label: "Monitored", value: Formatting.minutes(monitored), detail: "with beats"),
            ReportPage.Figure(
                label: "Stress", value: Formatting.minutes(stress),
                detail: monitored > 0 ? "\(Formatting.fixed(100 * stress / monitored, digits: 1)) % of monitored time" : nil),
        ]
        if let latest = restingDays.last, let resting = latest.resting {
            figures.append(ReportPage.Figure(
                label: "Resting RMSSD", value: Formatting.milliseconds(Double.exp(resting.lnRMSSD)),
                detail: "latest, \(LocalTime.shortDate(latest.day)); ln \(Formatting.fixed(resting.lnRMSSD, digits: 2))"))
            figures.append(ReportPage.Figure(
                label: "Resting HR", value: Formatting.fixed(resting.restingHR, digits: 0) + " bpm", detail: "latest, " + LocalTime.shortDate(latest.day)))
        } else {
            figures.append(ReportPage.Figure(label: "Resting values", value: "—", detail: "none in these days"))
        }
        if let today = report.days.last?.readiness, let normal = today.normal, let milliseconds = today.rangeRMSSD {
            figures.append(ReportPage.Figure(
                label: "Normal range", value: "\(Formatting.fixed(milliseconds.lowerBound, digits: 0))–\(Formatting.milliseconds(milliseconds.upperBound))",
                detail: "RMSSD, from \(Formatting.count(normal.days, "day")) of the last 60" + (today.week.map { "; 7-day CV \(Formatting.fixed($0.cvPercent, digits: 1)) %" } ?? "")))
        } else {
            figures.append(ReportPage.Figure(
                label: "Normal range", value: "—", detail: "needs resting values on \(ReadinessTrend.minimumRangeDays) of the last 60 days"))
        }
        return figures
    }

    private static func sessionTable(_ report: DaysReport) -> String {
        guard !report.sessions.isEmpty else { return "<p class=\"muted\">No sessions started in these days.</p>" }
        let none = "—"
        let rows = report.sessions.map { session -> [ReportPage.Cell] in
            // The session's own summary: none when it ended abruptly.
            let summary = session.ended ? (heartRate: session.heartRate, rmssd: session.rmssd) : nil
            return [
                ReportPage.Cell(session.id),
                ReportPage.Cell("\(LocalTime.shortDate(CalendarDay(WallClock.day(session.start))!)) \(WallClock.timeOfDay(session.start).prefix(5))", kind: "time"),
                ReportPage.Cell(Formatting.elapsed(session.end - session.origin) + (summary == nil ? " (ended abruptly)" : ""), kind: "number"),
                ReportPage.Cell(summary?.heartRate.map { Formatting.fixed($0, digits: 0) } ?? none, kind: "number"),
                ReportPage.Cell(summary?.rmssd.map { Formatting.fixed($0, digits: 1) } ?? none, kind: "number"),
                ReportPage.Cell(Formatting.minutes(session.recordedStressSeconds), kind: "number"),
                ReportPage.Cell(String(session.breathing.count), kind: "number"),
                ReportPage.Cell(String(session.notes.count), kind: "number"),
            ]
        }
        let headings = ["Session", "Start", "Duration", "Mean HR, bpm", "RMSSD, ms", "Stress", "Breathing", "Notes"].enumerated().map {
            ReportPage.Cell($0.element, kind: $0.offset >= 2 ? "number" : nil)
        }
        return ReportPage.table(
            caption: "For one session in detail: hrvmon report SESSION.", headings: headings, rows: rows)
    }

    private static func about(_ report: DaysReport) -> String {
        let paragraphs = [
            "Days are local calendar days; a session belongs to the day it started. Stress minutes come from the sessions' stress episodes, counted only while beats were coming in, and placed on the clock as the session's first beat plus the heartbeats since (plus any link loss).",
            "Resting values come from the personal resting history, one value per local calendar day: the morning check (“hrvmon check”) when there was one, otherwise the mean of the day's session calibrations and readings added with “hrvmon baseline add”. The 7-day mean and CV (SD / mean of ln RMSSD) need values on 3 of the 7 days; the normal range of a day is the mean ± 1 SD of the values of the 60 days before it, once 14 of them have one. A day is marked when its 7-day mean lies outside that range: a change that lasts, not a single low morning.",
            "This report is a summary for reflection, not a medical assessment.",
        ]
        return ReportPage.about(paragraphs)
    }
}
