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
        body += "<h2>Resting values</h2><p class=\"lead\">From the personal resting history: each session's calibration at rest and imported morning readings.</p>"
        body += "<div class=\"grid-2\"><figure>\(charts.lnRMSSD())<figcaption>ln RMSSD at rest; shaded: the personal normal range (mean ± 1 SD) the monitor judged stress against that day.</figcaption></figure>"
        body += "<figure>\(charts.restingHeartRate())<figcaption>Resting heart rate, bpm.</figcaption></figure></div>"
        body += "<h2>Stress and monitoring</h2>"
        body += "<div class=\"grid-2\"><figure>\(charts.stressMinutes())<figcaption>Minutes of stress per day, from the sessions' stress episodes.</figcaption></figure>"
        body += "<figure>\(charts.sessions())<figcaption>Sessions started per day.</figcaption></figure></div>"
        body += "<h2>Stress by hour of day</h2>"
        body += "<figure>\(StressHeatMap.chart(report))<figcaption>Minutes of stress in each local hour; hover a cell for its numbers.</figcaption></figure>"
        body += StressHeatMap.legend()
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
        if let baseline = report.days.last?.baseline {
            figures.append(ReportPage.Figure(
                label: "Normal range", value: "\(Formatting.fixed(baseline.normalRMSSD.lowerBound, digits: 0))–\(Formatting.milliseconds(baseline.normalRMSSD.upperBound))",
                detail: "RMSSD today, from \(Formatting.count(baseline.samples, "day"))"))
        } else {
            figures.append(ReportPage.Figure(label: "Normal range", value: "—", detail: "too few days of resting data yet"))
        }
        return figures
    }

    private static func sessionTable(_ report: DaysReport) -> String {
        guard !report.sessions.isEmpty else { return "<p class=\"muted\">No sessions started in these days.</p>" }
        let none = "—"
        let rows = report.sessions.map { session -> [ReportPage.Cell] in
            let summary = session.file.summary
            return [
                ReportPage.Cell(session.id),
                ReportPage.Cell("\(LocalTime.shortDate(CalendarDay(WallClock.day(session.file.header.start))!)) \(WallClock.timeOfDay(session.file.header.start).prefix(5))", kind: "time"),
                ReportPage.Cell(Formatting.elapsed(session.timeline.end - session.timeline.origin) + (summary == nil ? " (ended abruptly)" : ""), kind: "number"),
                ReportPage.Cell(summary?.heartRate.map { Formatting.fixed($0, digits: 0) } ?? none, kind: "number"),
                ReportPage.Cell(summary?.rmssd.map { Formatting.fixed($0, digits: 1) } ?? none, kind: "number"),
                ReportPage.Cell(Formatting.minutes(session.stressSeconds), kind: "number"),
                ReportPage.Cell(String(session.exercises.count), kind: "number"),
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
            "Resting values come from the personal resting history (one value per day: each session's first minutes at rest, and readings added with “hrvmon baseline add”). The normal range of a day is the personal baseline as it stood then: mean ln RMSSD ± 1 SD over its last days, once there were enough of them.",
            "This report is a summary for reflection, not a medical assessment.",
        ]
        return ReportPage.about(paragraphs)
    }
}
