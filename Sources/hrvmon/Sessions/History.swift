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
            measurement's own UTC offset; a change of offset is noted.
            """)

    @Option(parsing: .unconditional, help: "Days to show, today included.")
    var days = 14

    @Option(help: "text, json or csv (one row per day, the JSON keys as columns).")
    var format: OutputFormat = .text

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        guard (1...3660).contains(days) else { throw ValidationError("--days must be 1–3660") }
    }

    func run() throws {
        let settings = try config.load()
        let history: BaselineHistory
        do { history = try DataDirectory.loadHistory() } catch { throw badInput(error) }
        let overviews = SessionOverview.all(since: CalendarDay(DataDirectory.today)?.adding(days: -(days - 1)), skipping: reportSkipped)
        let sessions = overviews.map { (WallClock.day($0.start), $0.stressSeconds / 60) }
        let trend = DailyTrend.days(
            days, today: DataDirectory.today, history: history, sessions: sessions, baselineDays: Int(settings.baseline.days),
            minimumDays: Int(settings.baseline.minimumDays), minimumSD: settings.stress.minimumSD)
        var output = FileStream.standardOutput
        switch format {
        case .text: output.write(DailyTrend.text(trend) + StressPatterns(overviews, diary: diaryCheckIns(since: trend.map(\.day).min())).section)
        case .json: output.write(DailyTrend.json(trend))
        case .csv: output.write(DailyTrend.csv(trend))
        }
        output.flush()
    }

    /// The diary's check-ins from `day` on (local days); none when the diary cannot be read.
    private func diaryCheckIns(since day: String?) -> [(time: Double, checkIn: CheckIn)] {
        ((try? SelfReportStore.entries(of: SelfReportStore.diaryFile)) ?? []).compactMap { entry in
            guard case .checkIn(let checkIn, let time) = entry, WallClock.day(time) >= (day ?? "") else { return nil }
            return (time, checkIn)
        }
    }
}
