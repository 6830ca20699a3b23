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
/// A study that shifts times is sent them shifted by the participant's `TimeShift`; the local
/// files and the sent state keep the real ones.
public struct StudySync {
    /// Beats per statement: about 20 minutes of beats, a few hundred kilobytes.
    public static let batchSize = 1500

    public struct Report: Sendable {
        public var sessionsSent = 0
        /// Beats the server stored now (not those it already had).
        public var beatsSent = 0
        /// Check-ins and answers to "Was that stress?" the server stored now (category checkins).
        public var checkInsSent = 0
        public var labelsSent = 0
        /// Notes and events the server stored now (categories notes, events).
        public var notesSent = 0
        public var eventsSent = 0
        /// Session files that could not be read (what is wrong and where): nothing of them was
        /// sent this time, and where to resume them is kept.
        public var damaged: [String] = []
    }

    let membership: Membership
    let database: DatabaseSession

    /// Connects with the credential kept at `join`.
    public init(membership: Membership, loop: EventLoop) throws(StudyFailure) {
        self.membership = membership
        database = try Membership.openDatabase(on: loop)
    }

    /// Sends what the server lacks of `sessions` (paths, oldest first) and, with checkins, of the
    /// diary; `progress` hears of each session sent. A file unchanged since it was sent whole (its
    /// size, modification time and inode as they were, no category chosen since, and the server
    /// still holding its beats) is not read again: a year of them is 3.7 GB to decompress. A file
    /// that cannot be read is named in the report's `damaged` and left as it is, its resume point
    /// with it; the others are sent.
    public func send(sessions: [String], progress: (String) -> Void) throws(StudyFailure) -> Report {
        var report = Report()
        let sendsBeats = membership.categories.contains("rr"), selfReports = StudySelfReports.Categories(membership.categories)
        guard sendsBeats || selfReports.any else { return report }
        let shift = membership.timeShift
        let sent = SentState.load()
        let received = sendsBeats ? try highWaterMarks() : [:]
        for path in sessions {
            let id = SessionStore.id(of: path)
            let entry = sent.entries[id], mark = SentState.FileMark(path: path, categories: membership.categories)
            if let entry, let mark, entry.file?.covers(mark) == true, !sendsBeats || (received[shift.session(id)] ?? -1) == entry.lastSequence {
                continue
            }
            // Its beats all sent; its check-ins, answers, notes and events are read again (`label`
            // appends to an ended session), only the lines without beats.
            let beatsSent = !sendsBeats || (entry?.isComplete == true && received[shift.session(id)] == entry?.lastSequence)
            if beatsSent && !selfReports.any { continue }
            let file: SessionFile
            do { file = try SessionFileReader.read(path: path, detail: beatsSent ? .overview : .beats) } catch {
                report.damaged.append("\(error)")
                continue
            }
            if file.header.start >= membership.acceptedTime {
                if !beatsSent { try sendBeats(id, file, mark: received[shift.session(id)] ?? -1, report: &report, progress: progress) }
                if selfReports.any { try send(StudySelfReports(id, file, selfReports), report: &report, progress: progress) }
            }
            if let mark { try SentState.record(id, sentWhole: mark) }
        }
        try SentState.forgetDeleted()
        if selfReports.checkIns {
            let diary: [SelfReportRecords.Entry]
            do { diary = try SelfReportStore.entries(of: SelfReportStore.diaryFile) } catch { throw .file(error.description) }
            try send(StudySelfReports(diary: diary, since: membership.acceptedTime), report: &report, progress: progress)
        }
        return report
    }

    private func sendBeats(_ id: String, _ file: SessionFile, mark: Int, report: inout Report, progress: (String) -> Void) throws(StudyFailure) {
        let waiting = file.beats.filter { $0.sequence > mark }
        // How far the session was recorded, before its beats: a batch that never arrives is
        // then a gap `status` shows.
        try query(StudyStatements.session(id, file, shift: membership.timeShift))
        if !waiting.isEmpty {
            var stored = 0
            for start in stride(from: 0, to: waiting.count, by: Self.batchSize) {
                let batch = waiting[start..<min(start + Self.batchSize, waiting.count)]
                stored += try query(StudyStatements.beats(batch, session: id, shift: membership.timeShift)).affected
                try SentState.record(id, lastSequence: batch.last!.sequence, isComplete: false)
            }
            report.sessionsSent += 1
            report.beatsSent += stored
            progress("\(id): \(stored) beats sent")
        }
        try SentState.record(id, lastSequence: file.beats.last?.sequence ?? mark, isComplete: file.summary != nil)
    }

    private func send(_ selfReports: StudySelfReports, report: inout Report, progress: (String) -> Void) throws(StudyFailure) {
        guard !selfReports.isEmpty else { return }
        let stored = StudySelfReports.stored(try query(selfReports.shifted(by: membership.timeShift).statement))
        report.checkInsSent += stored.checkIns
        report.labelsSent += stored.labels
        report.notesSent += stored.notes
        report.eventsSent += stored.events
        if stored != StudySelfReports.Stored() {
            let what = "check-ins \(stored.checkIns), answers \(stored.labels), notes \(stored.notes), events \(stored.events)"
            progress("\(selfReports.session.isEmpty ? "diary" : selfReports.session): sent \(what)")
        }
    }

    @discardableResult
    private func query(_ statement: (String, [String?])) throws(StudyFailure) -> QueryResult {
        try database.query(statement.0, statement.1)
    }

    /// The last beat's sequence number the server holds of each session of this participant, by
    /// the session's id as sent (shifted, in a study that shifts times). Asked per session (every
    /// beat's session has its row there), so each is one descent of the beats' primary key: a
    /// max(seq) grouped over all the participant's beats reads every one of them, 1.4 s for a
    /// month of one participant's 3.1 M beats against 0.09 ms a session
    /// (docs/development/benchmarks.md, "Study ingest").
    func highWaterMarks() throws(StudyFailure) -> [String: Int] {
        let rows = try database.query("""
            SELECT s.session, (SELECT max(b.seq) FROM hrvmon_study.beats b WHERE b.participant = current_user AND b.session = s.session)
            FROM hrvmon_study.sessions s WHERE s.participant = current_user
            """).rows
        var marks: [String: Int] = [:]
        for row in rows { if let id = row[0], let mark = row[1].flatMap({ Int($0) }) { marks[id] = mark } }
        return marks
    }
}
