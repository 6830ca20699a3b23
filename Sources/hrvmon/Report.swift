import Analysis
import HRV
import ArgumentParser
import Platform
import Presentation
import Recordings
import Report
import SessionLog
import UserData

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a self-contained HTML report of a session, or of the last days.",
        discussion: """
            hrvmon report SESSION: heart rate and RMSSD over the session with the resting baseline, \
            stress and activity episodes, breathing exercises, corrected beats, link losses and notes, \
            and a table of events. SESSION is a session id, a unique prefix of one, or a session file.

            hrvmon report --days N: the sessions started in the last N local calendar days (today \
            included) and the personal resting history: daily trends and stress by hour of day.

            The page needs nothing else: styles inline, no scripts, nothing loaded from the network. \
            It is created 0600 (it holds health data), written whole or not at all, and its path is \
            printed.
            """)

    @OptionGroup var reference: SessionReference<SessionIDsOrFiles>

    @Option(parsing: .unconditional, help: "Report the last N days (1 to 366) instead of one session.")
    var days: Int?

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Where to write the page; - for standard output. Default: hrvmon-ID.html or hrvmon-YYYY-MM-DD-Ndays.html in the current directory.",
        valueName: "path"))
    var output: String?

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        switch (reference.named, days) {
        case (nil, nil): throw ValidationError("give a SESSION (id, id prefix or file) or --days N")
        case (.some, .some): throw ValidationError("give a SESSION or --days N, not both")
        default: break
        }
        if let days, !(1...366).contains(days) { throw ValidationError("--days must be 1–366") }
        if output?.isEmpty == true { throw ValidationError("--output needs a path, or - for standard output") }
    }

    func run() throws {
        let generated = WallClock.now()
        let (page, defaultPath) = if let path = try badInputOnFailure({ try reference.path() }) {
            try sessionPage(at: path, generated: generated)
        } else {
            try daysPage(days!, generated: generated)
        }
        let path = output ?? defaultPath
        do { try ReportFile.write(page, to: path) } catch { throw badInput(error) }
        if path != "-" { print(path) }
    }

    private func sessionPage(at path: String, generated: Double) throws -> (page: String, path: String) {
        let file: SessionFile
        do {
            let input = try InputFile(opening: path)
            // Its start tells a session file from an RR recording, as `analyze` tells them apart;
            // an empty file goes to the session reader, which says it is empty.
            let start = try input.peek(64)
            if !start.isEmpty, !Analyze.isSessionFile(start), !Gzip.begins(start) { throw Self.notASession(input, path: path) }
            file = try SessionFileReader.read(input: input, source: path)
        } catch {
            throw badInput(error)
        }
        file.reportTornLine(of: path, "reporting")
        let report = SessionReport(file: file, ecgCheck: ECGCheck(file))
        return (SessionPage.render(report, generated: generated), "hrvmon-\(file.header.id).html")
    }

    /// Why a file that is no session file gets no report, and what to do with it: an RR
    /// recording has no clock times, sensor, events or notes for a page; `analyze` reads it.
    /// The intervals are counted as the file streams by, not gathered.
    static func notASession(_ input: InputFile, path: String) -> Error {
        let analyze = "`hrvmon analyze \(path)` analyses an RR recording (--series for its rolling windows over time); report reads session files (`hrvmon sessions` lists them)"
        do {
            let count = try countIntervals(input, source: path)
            return RecordingError(
                source: path, line: nil,
                problem: "an RR recording (\(Formatting.count(count, "interval"))), not a session: it has no times of day, sensor, events or notes to report",
                hint: analyze)
        } catch let error as RecordingError {
            return RecordingError(
                source: error.source, line: error.line, problem: "neither a session file nor an RR recording: \(error.problem)",
                hint: "report reads session files (`hrvmon sessions` lists them); `hrvmon analyze` reads RR recordings")
        } catch {
            return error
        }
    }

    private static func countIntervals(_ input: InputFile, source: String) throws -> Int {
        var reader = RRStreamReader(source: source)
        try input.forEachPiece(size: 1 << 16) { try reader.consume($0) { _ in } }
        _ = try reader.finish { _ in }
        return reader.count
    }

    private func daysPage(_ count: Int, generated: Double) throws -> (page: String, path: String) {
        let settings = try config.load()
        let history: BaselineHistory
        do { history = try DataDirectory.loadHistory() } catch { throw badInput(error) }
        let today = CalendarDay(WallClock.day(generated))!
        var unreadable: [(id: String, reason: String)] = []
        let first = CalendarDay(ordinal: today.ordinal - (count - 1))
        let sessions = SessionIndex.user.entries(of: SessionStore.all(since: first)) { error in
            FileStream.printError("hrvmon: \(error); left out of the report")
            unreadable.append((SessionStore.id(of: error.source), "\(error)"))
        }
        // The index has no metrics: the minutes before a denied episode are read from its file.
        var statesBefore: [String: [Int: String]] = [:]
        for entry in sessions {
            statesBefore[entry.id] = SessionSelfReport.statesBeforeDenied(path: entry.key.path, entry.stressEpisodes)
        }
        var report = DaysReport(sessions: sessions, unreadable: unreadable, history: history, settings: settings, today: today, count: count)
        report.statesBefore = statesBefore
        report.diary = SelfReportStore.diaryCheckIns(since: first.text)
        report.dass21 = SelfReportStore.dass21Results(since: first.text)
        return (DaysPage.render(report, generated: generated), "hrvmon-\(today.text)-\(count)days.html")
    }
}
