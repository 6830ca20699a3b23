import Analysis
import Platform
import SessionLog
import StudyDatabase
import UserData

/// Sending the participant's sessions: every beat of every session recorded since consent, once.
/// The local session file stays the source of truth. Each batch is one statement (`INSERT …
/// SELECT … FROM unnest(…) ON CONFLICT DO NOTHING`: COPY is refused under row-level security),
/// so the server has all of it or none; a batch whose acknowledgement was lost is sent again and
/// its beats, keyed by participant + session + sequence number, are not stored twice. Where to
/// resume (the high-water mark) is asked of the server, whose committed rows are what it received.
public struct StudySync {
    /// Beats per statement: about 20 minutes of beats, a few hundred kilobytes.
    public static let batchSize = 1500

    public struct Report: Sendable {
        public var sessionsSent = 0
        /// Beats the server stored now (not those it already had).
        public var beatsSent = 0
    }

    let membership: Membership
    let database: DatabaseSession

    /// Connects with the credential kept at `join`.
    public init(membership: Membership, loop: EventLoop) throws(StudyFailure) {
        self.membership = membership
        let invite = try Membership.loadInvite()
        database = try connect(try studyConnection(invite.connection, password: invite.password, caFile: Membership.caFile), on: loop)
    }

    /// Sends what the server lacks of `sessions` (paths, oldest first); `progress` hears of each
    /// session sent.
    public func send(sessions: [String], progress: (String) -> Void) throws(StudyFailure) -> Report {
        var report = Report()
        guard membership.categories.contains("rr") else { return report }
        var sent = SentState.load()
        let received = try highWaterMarks()
        for path in sessions {
            let id = SessionStore.id(of: path)
            if sent.entries[id]?.isComplete == true && received[id] == sent.entries[id]?.lastSequence { continue }
            let file: SessionFile
            do { file = try SessionFileReader.read(path: path, detail: .beats) } catch {
                progress("skipping \(error)")
                continue
            }
            guard file.header.start >= membership.acceptedTime else { continue }
            let mark = received[id] ?? -1
            let waiting = file.beats.filter { $0.sequence > mark }
            if !waiting.isEmpty {
                try database.query(
                    "INSERT INTO hrvmon_study.sessions (session, started) VALUES ($1, $2) ON CONFLICT DO NOTHING", [id, "\(file.header.start)"])
                var stored = 0
                for start in stride(from: 0, to: waiting.count, by: Self.batchSize) {
                    let batch = waiting[start..<min(start + Self.batchSize, waiting.count)]
                    stored += try send(batch, session: id)
                    sent.record(id, lastSequence: batch.last!.sequence, isComplete: false)
                    try sent.save()
                }
                report.sessionsSent += 1
                report.beatsSent += stored
                progress("\(id): \(stored) beats sent")
            }
            sent.record(id, lastSequence: file.beats.last?.sequence ?? mark, isComplete: file.summary != nil)
            try sent.save()
        }
        return report
    }

    /// The last beat's sequence number the server holds of each session of this participant.
    func highWaterMarks() throws(StudyFailure) -> [String: Int] {
        let rows = try database.query("SELECT session, max(seq) FROM hrvmon_study.beats WHERE participant = current_user GROUP BY session").rows
        var marks: [String: Int] = [:]
        for row in rows { if let id = row[0], let mark = row[1].flatMap({ Int($0) }) { marks[id] = mark } }
        return marks
    }

    private func send(_ beats: ArraySlice<SessionFile.RawBeat>, session: String) throws(StudyFailure) -> Int {
        let statement = """
            INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks)
            SELECT $1, u.seq, u.time, u.rr FROM unnest($2::integer[], $3::double precision[], $4::integer[]) AS u(seq, time, rr)
            ON CONFLICT DO NOTHING
            """
        let list = { (values: [String]) in "{" + values.joined(separator: ",") + "}" }
        return try database.query(
            statement,
            [session, list(beats.map { String($0.sequence) }), list(beats.map { "\($0.time)" }), list(beats.map { String($0.ticks) })]
        ).affected
    }
}

/// What this machine knows it sent, per session: the last beat's sequence number and whether
/// the session had ended then (`$XDG_DATA_HOME/hrvmon/study/sent`, lines `ID SEQ complete|open`).
/// A cache for `show` and for not re-reading finished sessions; the server's rows decide.
struct SentState {
    struct Entry {
        var lastSequence: Int
        var isComplete: Bool
    }

    static var directory: String { DataDirectory.path + "/study" }
    static var file: String { directory + "/sent" }

    var entries: [String: Entry] = [:]

    static func load() -> SentState {
        var state = SentState()
        guard let bytes = try? InputFile.read(file) else { return state }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let sequence = Int(fields[1]) else { continue }
            state.entries[String(fields[0])] = Entry(lastSequence: sequence, isComplete: fields[2] == "complete")
        }
        return state
    }

    mutating func record(_ id: String, lastSequence: Int, isComplete: Bool) {
        entries[id] = Entry(lastSequence: lastSequence, isComplete: isComplete)
    }

    func save() throws(StudyFailure) {
        let text = entries.keys.sorted().map { "\($0) \(entries[$0]!.lastSequence) \(entries[$0]!.isComplete ? "complete" : "open")\n" }.joined()
        try Membership.store(text, at: Self.file, in: Self.directory)
    }
}
