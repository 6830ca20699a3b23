import ArgumentParser
import LiveSession
import Platform
import SelfReport
import UserData

struct Remind: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remind on the desktop to check in, or to take the DASS-21 when it is due.",
        discussion: """
            For the systemd user timers hrvmon ships (hrvmon-checkin-reminder.timer, \
            hrvmon-dass21-reminder.timer; enable them with `systemctl --user enable --now NAME`, \
            change their times with `systemctl --user edit NAME`). Nothing is sent for the DASS-21 \
            until it is due.
            """)

    enum Subject: String, ExpressibleByArgument, CaseIterable {
        case checkin, dass21
    }

    @Argument(help: "checkin or dass21.")
    var subject: Subject

    @Option(parsing: .unconditional, help: ArgumentHelp("dass21: remind once the last result is N days old (14–28).", valueName: "days"))
    var every: Int = 14

    func validate() throws {
        guard (14...28).contains(every) else { throw ValidationError("--every \(every): the DASS-21 is taken every 14 to 28 days") }
        if subject == .checkin && every != 14 { throw ValidationError("--every is for dass21; a check-in reminder comes at the timer's times") }
    }

    func run() throws {
        let summary: String, body: String
        switch subject {
        case .checkin:
            summary = "Time to check in"
            body = "\(Mood.question) What are you doing, who with, where? `hrvmon checkin`, or c on the dashboard."
        case .dass21:
            let results = try badInputOnFailure { () throws(DataDirectory.Failure) in try SelfReportStore.entries(of: SelfReportStore.dass21File) }
            let last = results.compactMap { entry -> Double? in if case .dass21(_, let time) = entry { time } else { nil } }.last
            if let last, WallClock.now() - last < Double(every) * 86_400 {
                print("not due: the DASS-21 was last taken \(WallClock.day(last))")
                return
            }
            summary = "Time for the DASS-21"
            body = "21 questions about the past week, about 5 minutes: `hrvmon dass21`."
        }
        if let problem = DesktopReminder.send(summary: summary, body: body) {
            FileStream.printError("hrvmon: no reminder sent: \(problem)")
            throw ExitCode(1)
        }
        print("reminded: \(summary)")
    }
}
