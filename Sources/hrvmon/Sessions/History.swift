import Analysis
import ArgumentParser
import Platform
import Presentation
import SelfReport
import SessionLog
import UserData

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Daily trends: resting ln RMSSD with its 7-day mean and CV against your 60-day normal range, resting HR, stress minutes, sessions.",
        discussion: """
            A day's resting value is its morning check (`hrvmon check`) when it has one, otherwise the mean of its \
            sessions' first minutes at rest (and `hrvmon baseline add`). The 7-day mean and CV (SD / mean of ln RMSSD, \
            Plews et al. 2012) need values on 3 of the 7 days; a day's normal range is the mean +/- 1 SD of the values \
            of the 60 days before it, once 14 of them have one. Days whose 7-day mean lies outside the range are \
            marked (down and up arrows); resting HR is marked when more than \(Formatting.fixed(DailyTrend.heartRateMargin, digits: 0)) bpm \
            from the personal baseline of the days before (baseline.days). Days are local calendar days at each \
            measurement's own UTC offset; a change of offset is noted. With check-ins (`hrvmon checkin`), each day \
            shows its mean mood (1–5) and how many check-ins it had; DASS-21 results of the days follow, then what \
            the check-ins and your answers to "Was that stress?" show. --patterns prints only that last part \
            (with --format json: its numbers).
            """)

    @Option(parsing: .unconditional, help: "Days to show, today included.")
    var days = 14

    @Option(help: "text, json or csv (one row per day, the JSON keys as columns).")
    var format: OutputFormat = .text

    @Flag(help: "Only what check-ins and answers show: stress by tag, hour and weekday, the detector's agreement (text or json).")
    var patterns = false

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        guard (1...3660).contains(days) else { throw ValidationError("--days must be 1–3660") }
        if patterns, format == .csv { throw ValidationError("--patterns is text or json, not csv") }
    }

    func run() throws {
        let settings = try config.load()
        let history: BaselineHistory
        do { history = try DataDirectory.loadHistory() } catch { throw badInput(error) }
        let overviews = SessionOverview.all(since: CalendarDay(DataDirectory.today)?.adding(days: -(days - 1)), skipping: reportSkipped)
        let sessions = overviews.map { (WallClock.day($0.start), $0.stressSeconds / 60) }
        let first = CalendarDay(DataDirectory.today)?.adding(days: -(days - 1))?.text
        let diary = SelfReportStore.diaryCheckIns(since: first)
        let moods = (overviews.flatMap { $0.selfReport.checkIns.map { ($0.time, $0.checkIn) } } + diary).map { (WallClock.day($0.time), $0.checkIn.mood.rawValue) }
        let trend = DailyTrend.days(
            days, today: DataDirectory.today, history: history, sessions: sessions, moods: moods, baselineDays: Int(settings.baseline.days),
            minimumDays: Int(settings.baseline.minimumDays), minimumSD: settings.stress.minimumSD)
        var output = FileStream.standardOutput
        switch (format, patterns) {
        case (.text, true): output.write(StressPatterns(overviews, diary: diary).lines.map { $0 + "\n" }.joined())
        case (_, true): output.write(StressPatterns(overviews, diary: diary).json.serialized + "\n")
        case (.text, false):
            output.write(DailyTrend.text(trend) + dass21Section(since: first) + StressPatterns(overviews, diary: diary).section)
        case (.json, false): output.write(DailyTrend.json(trend))
        case (.csv, false): output.write(DailyTrend.csv(trend))
        }
        output.flush()
    }

    /// The DASS-21 results from `day` on, under a heading; empty without one.
    private func dass21Section(since day: String?) -> String {
        let results = SelfReportStore.dass21Results(since: day)
        guard !results.isEmpty else { return "" }
        return "\nDASS-21 over these days (each scale 0–42)\n" + DASS21Text.history(results.map { ($0.result, $0.time) })
    }
}
