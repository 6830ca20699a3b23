import Analysis
import ArgumentParser
import Platform
import Presentation
import SessionLog
import UserData

struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the recorded sessions: when, how long, which sensor, mean HR, RMSSD, stress and exercises.",
        discussion: "Sessions live in \(SessionStore.directory) (one JSON Lines file each; see docs/reference/session-files.md).")

    @Option(help: "text, json (one object) or csv.")
    var format: OutputFormat = .text

    @Option(parsing: .unconditional, help: "Only sessions started in the last N days (local calendar days, today included).")
    var days: Int?

    @Flag(help: "List the stress episodes instead, each with its name for `hrvmon label` and its answer to \"Was that stress?\".")
    var episodes = false
    @Flag(help: "Rewrite the ended sessions recorded before format version 2 as version 2 and compress them (each checked against the old file before it is removed).")
    var compact = false

    func validate() throws {
        if let days, days < 1 { throw ValidationError("--days must be 1 or more") }
        if episodes && format == .csv { throw ValidationError("--episodes is a table (text) or in the JSON (--format json); not CSV") }
    }

    func run() throws {
        if compact { return try compactAll() }
        var sessions: [SessionOverview]
        if let days, let first = CalendarDay(DataDirectory.today)?.adding(days: -(days - 1)) {
            sessions = SessionOverview.all(since: first, skipping: reportSkipped).filter { WallClock.day($0.start) >= first.text }
        } else {
            sessions = SessionOverview.all(skipping: reportSkipped)
        }
        var output = FileStream.standardOutput
        switch format {
        case .text where episodes: output.write(SessionOverview.episodesTable(sessions))
        case .text: output.write(SessionOverview.table(sessions, directory: SessionStore.directory))
        case .json: output.write("[" + sessions.map { $0.json.serialized }.joined(separator: ",") + "]\n")
        case .csv:
            output.write(SessionOverview.csvHeader + "\n")
            for session in sessions { output.write(session.csvLine + "\n") }
        }
        output.flush()
    }
}
