import HRV
import Platform
import Presentation
import RealModule
import SessionLog

/// The report of one session: key figures, heart rate and RMSSD over time with everything that
/// happened marked on them, a table of events, and how to read it all.
public enum SessionPage {
    public static func render(_ report: SessionReport, generated: Double) -> String {
        let header = report.file.header
        let charts = SessionCharts(report: report)
        let start = report.timeline.origin
        let device = [header.deviceName, header.deviceAddress.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        let subtitle = ["Session \(header.id)", device.isEmpty ? "unknown sensor" : device, header.source == "live" ? nil : header.source,
                        "times in \(LocalTime.offsetName(at: start))"].compactMap { $0 }.joined(separator: " · ")
        var body = ReportPage.header(
            kicker: "hrvmon · session report",
            title: "\(LocalTime.longDate(start)), \(String(WallClock.timeOfDay(start).prefix(5)))–\(String(WallClock.timeOfDay(report.timeline.end).prefix(5)))",
            subtitle: subtitle)
        body += ReportPage.figures(figures(report), columns: 5)
        body += warnings(report).map(ReportPage.warning).joined()
        if report.file.beats.isEmpty {
            body += "<p class=\"muted\">No beats were recorded, so there is nothing to chart.</p>"
        } else {
            body += "<h2>Over time</h2>" + legend(report)
            body += "<figure>\(charts.heartRate())<figcaption>Heart rate, bpm. Amber ticks along the bottom: beats changed by artifact correction; grey: implausible values left out.</figcaption></figure>"
            body += "<figure>\(charts.rmssd())<figcaption>RMSSD, ms\(report.baseline == nil ? "" : ", with the resting normal range shaded").</figcaption></figure>"
        }
        body += "<h2>Events</h2>" + SessionEvents.table(report)
        body += SessionECGCheck.section(report.ecgCheck)
        body += about(report)
        return ReportPage.document(title: "hrvmon session \(header.id)", body: body, generated: generated)
    }

    public static func figures(_ report: SessionReport) -> [ReportPage.Figure] {
        let summary = report.file.summary
        let none = "—"
        let corrections = report.corrections
        let stress = report.stressEpisodes
        let activity = report.activityEpisodes
        var figures = [
            ReportPage.Figure(
                label: "Duration", value: Formatting.elapsed(report.timeline.end - report.timeline.origin),
                detail: report.timeline.gaps.isEmpty ? "first to last beat"
                    : "\(Formatting.elapsed(report.timeline.gaps.reduce(0) { $0 + $1.length })) without signal"),
            ReportPage.Figure(
                label: "Beats", value: Formatting.grouped(report.file.beats.count),
                detail: corrections.usable == 0 ? nil
                    : "\(Formatting.fixed(100 * Double(corrections.corrected) / Double(corrections.usable), digits: 1)) % corrected"),
            ReportPage.Figure(label: "Mean heart rate", value: summary?.heartRate.map { Formatting.fixed($0, digits: 0) + " bpm" } ?? none, detail: "60 000 / mean NN"),
            ReportPage.Figure(
                label: "RMSSD", value: summary?.rmssd.map { Formatting.fixed($0, digits: 1) + " ms" } ?? none,
                detail: summary?.rmssd.flatMap { $0 > 0 ? "ln RMSSD \(Formatting.fixed(Double.log($0), digits: 2))" : nil }),
            ReportPage.Figure(label: "SDNN", value: summary?.sdnn.map { Formatting.fixed($0, digits: 1) + " ms" } ?? none, detail: "whole session"),
            ReportPage.Figure(
                label: "Stress", value: Formatting.minutes(report.stressSeconds),
                detail: stress.isEmpty ? "no episode" : Formatting.count(stress.count, "episode")
                    + (stress.compactMap(\.peakLevel).max().map { ", peak level \(Formatting.fixed($0, digits: 0))" } ?? "")),
            ReportPage.Figure(
                label: "Activity", value: Formatting.minutes(activity.reduce(0) { $0 + $1.duration }),
                detail: activity.isEmpty ? "no episode" : Formatting.count(activity.count, "episode")),
            ReportPage.Figure(
                label: "Breathing", value: String(report.exercises.count),
                detail: report.exercises.isEmpty ? "no exercise" : Formatting.count(report.exercises.count, "exercise") + ", "
                    + Formatting.minutes(report.exercises.reduce(0) { $0 + $1.end - $1.start })),
        ]
        if let baseline = report.baseline {
            figures.append(ReportPage.Figure(
                label: "Resting RMSSD", value: Formatting.milliseconds(baseline.restingRMSSD),
                detail: "HR \(Formatting.fixed(baseline.restingHR, digits: 0)) bpm; "
                    + (baseline.source == .personal ? "personal, \(Formatting.count(baseline.samples, "day"))" : "this session at rest")))
        } else {
            figures.append(ReportPage.Figure(label: "Resting RMSSD", value: none, detail: "no baseline"))
        }
        figures += motionFigures(report.file)
        let gaps = report.timeline.gaps.count
        figures.append(ReportPage.Figure(
            label: "Notes", value: String(report.notes.count), detail: gaps == 0 ? "no link loss" : gaps == 1 ? "1 link loss" : "\(gaps) link losses"))
        return figures
    }

    /// With a chest accelerometer: the time spent still, moving and walking, and where the
    /// breathing rate was read (the chest's tilting, or the RR spectrum).
    static func motionFigures(_ file: SessionFile) -> [ReportPage.Figure] {
        var levels: [MotionSecond.Level: Double] = [:]
        for case .motion(let motion) in file.steps { levels[motion.second.level, default: 0] += 1 }
        guard let motion = Formatting.shares(MotionSecond.Level.allCases.map { ($0.rawValue, levels[$0] ?? 0) }) else { return [] }
        let seconds = levels.values.reduce(0, +)
        var figures = [ReportPage.Figure(label: "Motion", value: motion.components(separatedBy: ", ")[0], detail: motion + " of " + Formatting.minutes(seconds))]
        let sources = BreathingSource.allCases.map { source in
            (source == .chest ? "chest" : "RR spectrum", Double(file.metrics.filter { $0.breathingSource == source.rawValue }.count))
        }
        if let breathing = Formatting.shares(sources) {
            figures.append(ReportPage.Figure(label: "Breathing source", value: breathing.components(separatedBy: ", ")[0], detail: breathing + " of the readings"))
        }
        return figures
    }

    /// What the reader must know before trusting the figures.
    public static func warnings(_ report: SessionReport) -> [String] {
        var warnings: [String] = []
        if let torn = report.file.tornLine {
            warnings.append("The session ended abruptly: its last line (line \(torn)) was cut short, as by a crash or power loss. Everything before it is shown.")
        }
        if report.file.summary == nil {
            warnings.append("The session did not end normally, so its whole-session figures were never written (shown as —); “hrvmon analyze” on the session file recomputes them.")
        }
        if report.file.unknownLines > 0 {
            warnings.append("\(Formatting.count(report.file.unknownLines, "line")) of kinds this hrvmon does not know were skipped (the file was written by a newer hrvmon).")
        }
        if report.baseline == nil, !report.file.beats.isEmpty {
            warnings.append("No resting baseline: the session ended before it had calibrated (its first \(Formatting.setting(seconds: report.settings.stress.calibration)) at rest), so no stress could be judged.")
        }
        return warnings
    }

    /// What the charts show; only what this session has.
    private static func legend(_ report: SessionReport) -> String {
        let entries: [(swatch: String, text: String, shown: Bool)] = [
            ("line hr", "Heart rate", true), ("line rmssd", "RMSSD", true),
            ("band", "Resting normal range (mean ± 1 SD)", report.baseline != nil),
            ("stress", "Stress", !report.stressEpisodes.isEmpty), ("activity", "Physical activity", !report.activityEpisodes.isEmpty),
            ("state-recovery", "Recovery after exercise (not stress)", report.stateSpans.contains { $0.state == .recovery }),
            ("state-paced_breathing", "Paced breathing (not stress)", report.stateSpans.contains { $0.state == .pacedBreathing }),
            ("state-posture", "Posture change, rest re-measured (not judged)", report.stateSpans.contains { $0.state == .posture }),
            ("exercise", "Breathing exercise", !report.exercises.isEmpty), ("gap", "No signal (link lost)", !report.timeline.gaps.isEmpty),
            ("note", "Note, numbered as in the table", !report.notes.isEmpty),
            ("artifact", "Beat changed by artifact correction", report.corrections.corrected > 0),
        ]
        return ReportPage.legend(entries.filter(\.shown).map { ($0.swatch, $0.text) })
    }

    private static func about(_ report: SessionReport) -> String {
        let settings = report.settings
        let stress = settings.stress
        let paragraphs = [
            "Times are local clock times (\(LocalTime.offsetName(at: report.timeline.origin))). The time axis is the session's beat timeline: the first beat's clock time plus the heartbeats since, plus the length of any link loss. Notes sit where the last notification received before them left the timeline.",
            "Heart rate is 60 000 / mean NN and RMSSD the root mean square of successive differences between beats, both over the rolling \(Formatting.setting(seconds: settings.pipeline.rmssdWindow)) window, after artifact correction (the causal Kubios method; a beat changed by it is marked with an amber tick). SDNN is the standard deviation of all beats of the session.",
            "The resting normal range is the baseline: mean ln RMSSD ± 1 SD, shown as RMSSD. It is the personal baseline of the last days when there were enough of them, otherwise this session's first \(Formatting.setting(seconds: stress.calibration)) at rest. Stress is judged against a rolling reference: where this session has rested in its last half hour.",
            "Stress (red) is low vagal activity that nothing else explains: ln RMSSD at least \(Formatting.fixed(stress.onsetMargin, digits: 2)) SD below the reference with breathing faster than at rest (or \(Formatting.fixed(stress.calmBreathingOnsetMargin, digits: 1)) SD without), heart rate at least \(Formatting.fixed(stress.heartRateMargin, digits: 0)) bpm above it, held for \(Formatting.setting(seconds: stress.sustain)); it is dated back to where the condition began. Physical activity (blue) is heart rate \(Formatting.fixed(stress.activityMargin, digits: 0)) bpm or more above the reference, and the recovery after it, paced breathing and the minutes after a change of posture are never counted as stress. Level: 0–100, 25 at the reference.",
            "Made from the session file \(report.id).jsonl; the figures are the ones the session recorded. This report is a summary for reflection, not a medical assessment.",
        ]
        return ReportPage.about(paragraphs)
    }
}
