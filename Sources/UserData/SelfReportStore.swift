import Platform
import SelfReport
import SessionLog

/// What the wearer reports outside a session, in the data directory (0600, JSON Lines, one line
/// appended per entry, never rewritten): check-ins with no session running in `checkins.jsonl`
/// (the diary), completed DASS-21 questionnaires in `dass21.jsonl`. And the `label` lines
/// `hrvmon label` appends to a session file that has ended.
public enum SelfReportStore {
    public static var diaryFile: String { DataDirectory.path + "/checkins.jsonl" }
    public static var dass21File: String { DataDirectory.path + "/dass21.jsonl" }

    public static func addToDiary(_ checkIn: CheckIn, at time: Double) throws(DataDirectory.Failure) {
        try append(SelfReportRecords.checkInLine(checkIn, at: time), to: diaryFile)
    }

    public static func add(_ result: DASS21.Result, at time: Double) throws(DataDirectory.Failure) {
        try append(SelfReportRecords.dass21Line(result, at: time), to: dass21File)
    }

    /// The entries of `file`, oldest first; none when it does not exist yet. A damaged line is
    /// an error naming it.
    public static func entries(of file: String) throws(DataDirectory.Failure) -> [SelfReportRecords.Entry] {
        guard FileSystem.exists(file) else { return [] }
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(file)
        } catch {
            throw DataDirectory.Failure(path: file, reason: error.reason)
        }
        var entries: [SelfReportRecords.Entry] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            do {
                if let entry = try SelfReportRecords.entry(Array(line)) { entries.append(entry) }
            } catch {
                throw DataDirectory.Failure(path: file, reason: "line \(index + 1): \(error.reason)")
            }
        }
        return entries
    }

    /// The diary's check-ins from local day `day` on (all with nil), oldest first; none when the
    /// diary cannot be read (`history` and `report --days` show the sessions' then).
    public static func diaryCheckIns(since day: String?) -> [(time: Double, checkIn: CheckIn)] {
        ((try? entries(of: diaryFile)) ?? []).compactMap { entry in
            guard case .checkIn(let checkIn, let time) = entry, WallClock.day(time) >= (day ?? "") else { return nil }
            return (time, checkIn)
        }
    }

    /// The DASS-21 results from local day `day` on, oldest first; none when unreadable.
    public static func dass21Results(since day: String?) -> [(result: DASS21.Result, time: Double)] {
        ((try? entries(of: dass21File)) ?? []).compactMap { entry in
            guard case .dass21(let result, let time) = entry, WallClock.day(time) >= (day ?? "") else { return nil }
            return (result, time)
        }
    }

    /// Appends the `label` line of an answer to a session's file: the file stays append-only.
    public static func appendLabel(_ label: EpisodeLabel, at time: Double, toSession path: String) throws(DataDirectory.Failure) {
        var line = SessionLine(.label(label), at: time)
        let bytes = Array(line.text()!.utf8)
        // An ended session is usually compressed: the line goes in as a gzip member of its own.
        try append(path.hasSuffix(SessionStore.compressedExtension) ? Gzip.member(bytes) : bytes, to: path, creating: false)
    }

    /// One write of a whole line with O_APPEND, so lines from two processes never interleave.
    private static func append(_ line: String, to file: String) throws(DataDirectory.Failure) {
        try append(Array(line.utf8), to: file, creating: true)
    }

    private static func append(_ bytes: [UInt8], to file: String, creating: Bool) throws(DataDirectory.Failure) {
        if creating { try DataDirectory.makePrivateDirectory(DataDirectory.path) }
        guard creating || FileSystem.exists(file) else { throw DataDirectory.Failure(path: file, reason: "does not exist") }
        let descriptor: Int32
        switch FileSystem.openForAppending(file, permissions: 0o600, exclusive: false) {
        case .success(let opened): descriptor = opened
        case .failure(let failure): throw DataDirectory.Failure(path: file, reason: failure.description)
        }
        defer { Descriptor.close(descriptor) }
        let failure = bytes.withUnsafeBytes { FileStream.writeAll($0, to: descriptor) }
        if let failure { throw DataDirectory.Failure(path: file, reason: failure.description) }
    }
}

extension SelfReportStore {
    /// Sessions read for earlier check-ins: the newest ones, enough for the tags in use.
    public static let sessionsForVocabulary = 20

    /// Earlier check-ins, oldest first: the diary's and those in the newest sessions (files that
    /// cannot be read are passed over: this only offers completions).
    public static func earlierCheckIns() -> [CheckIn] {
        var checkIns: [CheckIn] = []
        for path in SessionStore.all().suffix(sessionsForVocabulary) {
            guard let file = try? SessionFileReader.read(path: path, detail: .overview) else { continue }
            checkIns += file.checkIns.map(\.checkIn)
        }
        for case .checkIn(let checkIn, _) in (try? entries(of: diaryFile)) ?? [] { checkIns.append(checkIn) }
        return checkIns
    }
}
