import Analysis
import ArgumentParser
import Platform
import Presentation
import SessionLog
import UserData

struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Daily trends: resting HR and ln RMSSD against your normal range, stress minutes, sessions.",
        discussion: """
            Resting values come from each session's first minutes (and `hrvmon baseline add`). A day's \
            normal range is the personal baseline of the days before it (baseline.days): ln RMSSD mean +/- SD, \
            resting HR +/- \(Formatting.fixed(DailyTrend.heartRateMargin, digits: 0)) bpm. Days outside it are \
            flagged (shown as down and up arrows).
            """)

    @Option(help: "Days to show, today included.")
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
        let sessions = SessionOverview.all(since: CalendarDay(DataDirectory.today)?.adding(days: -(days - 1)), skipping: reportSkipped)
            .map { (WallClock.day($0.start), $0.stressSeconds / 60) }
        let trend = DailyTrend.days(
            days, today: DataDirectory.today, history: history, sessions: sessions, baselineDays: Int(settings.baseline.days),
            minimumDays: Int(settings.baseline.minimumDays), minimumSD: settings.stress.minimumSD)
        var output = FileStream.standardOutput
        switch format {
        case .text: output.write(DailyTrend.text(trend))
        case .json: output.write(DailyTrend.json(trend))
        case .csv: output.write(DailyTrend.csv(trend))
        }
        output.flush()
    }
}
