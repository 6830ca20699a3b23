import Platform
import SessionLog

extension StudyResearcher {
    /// A participant still in the study: consented, and not withdrawn since.
    public struct Member: Sendable {
        public var pseudonym: String
        public var consentVersion: Int
        public var consented: String
        public var categories: [String]
    }

    /// One session of one participant as the server holds it: its beats as received, in order.
    /// The server keeps no heart rate or skin contact (`RawBeat.init(time:sequence:ticks:)`).
    public struct PulledSession: Sendable {
        public var participant: String
        public var id: String
        /// Unix seconds.
        public var started: Double
        public var beats: [SessionFile.RawBeat]
    }

    /// The `checkins`, `notes` and `events` categories of the participants still in the study, as
    /// the server holds them: check-ins (`session` empty: the diary's), answers to "Was that
    /// stress?", notes and events, by participant, session and place in its file. A few a day (a
    /// few hundred events when links come and go), so all of them at once.
    public struct PulledSelfReports: Sendable {
        public struct CheckIn: Sendable {
            public var participant: String
            public var session: String
            public var seq: Int
            public var time: Double
            public var mood: Int
            public var doing: String?
            public var company: String?
            public var place: String?
        }

        public struct Label: Sendable {
            public var participant: String
            public var session: String
            public var seq: Int
            public var episode: Int
            /// The episode's start and end, seconds into the session (its `stress` line's).
            public var start: Double
            public var end: Double?
            public var answer: String
            public var via: String
        }

        public struct Note: Sendable {
            public var participant: String
            public var session: String
            public var seq: Int
            public var time: Double
            public var text: String
        }

        public struct Event: Sendable {
            public var participant: String
            public var session: String
            public var kind: String
            public var seq: Int
            public var time: Double?
            public var start: Double?
            public var end: Double?
            public var detail: String?
        }

        public var checkIns: [CheckIn] = []
        public var labels: [Label] = []
        public var notes: [Note] = []
        public var events: [Event] = []
    }

    /// Beats fetched from the cursor at a time: a few hundred kilobytes, whatever the study's size.
    public static let pullBatch = 5000

    /// The latest consent row of each participant, as SQL: who is in the study now.
    static let latestConsents = """
        SELECT p.pseudonym, c.version, to_char(c.accepted AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS accepted,
            array_to_string(c.categories, ',') AS categories, c.withdrawn
        FROM hrvmon_study.participants p
        JOIN LATERAL (SELECT * FROM hrvmon_study.consents c WHERE c.participant = p.pseudonym ORDER BY c.accepted DESC LIMIT 1) c ON true
        """

    /// The study's name.
    public func studyName() throws(StudyFailure) -> String {
        try database.query("SELECT name FROM hrvmon_study.study").single ?? ""
    }

    /// Whether the study shifts its participants' times (`create --time-shift`).
    public func shiftsTimes() throws(StudyFailure) -> Bool {
        try database.query("SELECT to_jsonb(s) ->> 'time_shift' FROM hrvmon_study.study s").single == "true"
    }

    /// The participants still in the study, by pseudonym.
    public func members() throws(StudyFailure) -> [Member] {
        try database.query("SELECT * FROM (\(Self.latestConsents)) l WHERE NOT l.withdrawn ORDER BY pseudonym").rows.map { row in
            Member(
                pseudonym: row[0] ?? "", consentVersion: row[1].flatMap { Int($0) } ?? 0, consented: row[2] ?? "",
                categories: (row[3] ?? "").split(separator: ",").map(String.init))
        }
    }

    /// Every session of the participants still in the study, one at a time in pseudonym and
    /// session order, read through a cursor in one read-only snapshot: only one session is in
    /// memory at once, so a study of any size is pulled in constant memory. Then, in the same
    /// snapshot, their check-ins and answers (`selfReports`).
    public func pull(_ visit: (PulledSession) throws -> Void, selfReports: (PulledSelfReports) throws -> Void) throws {
        try database.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try database.query(
            """
            DECLARE pulled NO SCROLL CURSOR FOR
            SELECT b.participant, b.session, s.started, b.seq, b.time, b.rr_ticks
            FROM hrvmon_study.beats b JOIN hrvmon_study.sessions s USING (participant, session)
            WHERE b.participant IN (SELECT pseudonym FROM (\(Self.latestConsents)) l WHERE NOT l.withdrawn)
            ORDER BY b.participant, b.session, b.seq
            """)
        var session: PulledSession?
        while true {
            let rows = try database.query("FETCH \(Self.pullBatch) FROM pulled").rows
            for row in rows {
                let (participant, id) = (row[0] ?? "", row[1] ?? "")
                if let current = session, current.participant != participant || current.id != id {
                    try visit(current)
                    session = nil
                }
                if session == nil {
                    session = PulledSession(participant: participant, id: id, started: Double(row[2] ?? "") ?? 0, beats: [])
                }
                session?.beats.append(SessionFile.RawBeat(
                    time: Double(row[4] ?? "") ?? 0, sequence: Int(row[3] ?? "") ?? 0, ticks: UInt16(row[5] ?? "") ?? 0))
            }
            if rows.count < Self.pullBatch { break }
        }
        if let session { try visit(session) }
        try selfReports(try pulledSelfReports())
        try database.query("COMMIT")
    }

    private func pulledSelfReports() throws(StudyFailure) -> PulledSelfReports {
        let stillIn = "WHERE participant IN (SELECT pseudonym FROM (\(Self.latestConsents)) l WHERE NOT l.withdrawn)"
        let members = stillIn + " ORDER BY participant, session, seq"
        var pulled = PulledSelfReports()
        let number = { (text: String?) in Double(text ?? "") ?? 0 }
        for row in try database.query("SELECT participant, session, seq, time, mood, doing, company, place FROM hrvmon_study.checkins \(members)").rows {
            pulled.checkIns.append(PulledSelfReports.CheckIn(
                participant: row[0] ?? "", session: row[1] ?? "", seq: Int(number(row[2])), time: number(row[3]), mood: Int(number(row[4])),
                doing: row[5], company: row[6], place: row[7]))
        }
        for row in try database.query("SELECT participant, session, seq, episode, start_s, end_s, answer, via FROM hrvmon_study.episode_labels \(members)").rows {
            pulled.labels.append(PulledSelfReports.Label(
                participant: row[0] ?? "", session: row[1] ?? "", seq: Int(number(row[2])), episode: Int(number(row[3])), start: number(row[4]),
                end: row[5].flatMap { Double($0) }, answer: row[6] ?? "", via: row[7] ?? ""))
        }
        for row in try database.query("SELECT participant, session, seq, time, text FROM hrvmon_study.notes \(members)").rows {
            pulled.notes.append(PulledSelfReports.Note(
                participant: row[0] ?? "", session: row[1] ?? "", seq: Int(number(row[2])), time: number(row[3]), text: row[4] ?? ""))
        }
        let events = "SELECT participant, session, kind, seq, time, start_s, end_s, detail FROM hrvmon_study.events \(stillIn) ORDER BY participant, session, kind, seq"
        for row in try database.query(events).rows {
            pulled.events.append(PulledSelfReports.Event(
                participant: row[0] ?? "", session: row[1] ?? "", kind: row[2] ?? "", seq: Int(number(row[3])), time: row[4].flatMap { Double($0) },
                start: row[5].flatMap { Double($0) }, end: row[6].flatMap { Double($0) }, detail: row[7]))
        }
        return pulled
    }

    /// What `erase` deleted, and what is left of the participant when listed again.
    public struct Erasure: Sendable {
        public var beats = 0
        public var sessions = 0
        public var consents = 0
        /// Check-ins and answers to "Was that stress?".
        public var checkIns = 0
        public var labels = 0
        public var notes = 0
        public var events = 0
        /// Rows of the participant in any table afterwards, and whether its role is still there.
        public var rowsLeft = 0
        public var roleLeft = false
    }

    /// Deletes every row of `participant` and its role in one transaction (the role's open
    /// connections ended first), then lists again what the server holds of it.
    public func erase(_ participant: String) throws(StudyFailure) -> Erasure {
        // A role name hrvmon made (`p_` and hex): safe to name in DROP ROLE.
        guard participant.allSatisfy({ $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) }),
            try database.query("SELECT count(*) FROM hrvmon_study.participants WHERE pseudonym = $1", [participant]).single == "1"
        else {
            throw .badInput("no participant '\(participant)' in the study in \(database.connection.database) (`hrvmon study status` lists them)")
        }
        var erasure = Erasure()
        // A researcher who may not end others' connections (pg_signal_backend) still erases;
        // a connection of the role that outlives its role holds nothing.
        _ = try? database.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1", [participant])
        try database.query("BEGIN")
        erasure.beats = try database.query("DELETE FROM hrvmon_study.beats WHERE participant = $1", [participant]).affected
        erasure.sessions = try database.query("DELETE FROM hrvmon_study.sessions WHERE participant = $1", [participant]).affected
        erasure.consents = try database.query("DELETE FROM hrvmon_study.consents WHERE participant = $1", [participant]).affected
        erasure.checkIns = try database.query("DELETE FROM hrvmon_study.checkins WHERE participant = $1", [participant]).affected
        erasure.labels = try database.query("DELETE FROM hrvmon_study.episode_labels WHERE participant = $1", [participant]).affected
        erasure.notes = try database.query("DELETE FROM hrvmon_study.notes WHERE participant = $1", [participant]).affected
        erasure.events = try database.query("DELETE FROM hrvmon_study.events WHERE participant = $1", [participant]).affected
        try database.query("DELETE FROM hrvmon_study.participants WHERE pseudonym = $1", [participant])
        try database.query("DROP ROLE IF EXISTS \(participant)")
        try database.query("COMMIT")
        let left = try database.query(
            """
            SELECT (SELECT count(*) FROM hrvmon_study.beats WHERE participant = $1) + (SELECT count(*) FROM hrvmon_study.sessions WHERE participant = $1)
                + (SELECT count(*) FROM hrvmon_study.consents WHERE participant = $1) + (SELECT count(*) FROM hrvmon_study.participants WHERE pseudonym = $1)
                + (SELECT count(*) FROM hrvmon_study.checkins WHERE participant = $1) + (SELECT count(*) FROM hrvmon_study.episode_labels WHERE participant = $1)
                + (SELECT count(*) FROM hrvmon_study.notes WHERE participant = $1) + (SELECT count(*) FROM hrvmon_study.events WHERE participant = $1),
                (SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname = $1)
            """, [participant]
        ).rows.first
        erasure.rowsLeft = left?[0].flatMap { Int($0) } ?? -1
        erasure.roleLeft = left?[1] != "0"
        return erasure
    }
}
