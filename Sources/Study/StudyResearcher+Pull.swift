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
    /// memory at once, so a study of any size is pulled in constant memory.
    public func pull(_ visit: (PulledSession) throws -> Void) throws {
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
        try database.query("COMMIT")
    }

    /// What `erase` deleted, and what is left of the participant when listed again.
    public struct Erasure: Sendable {
        public var beats = 0
        public var sessions = 0
        public var consents = 0
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
        try database.query("DELETE FROM hrvmon_study.participants WHERE pseudonym = $1", [participant])
        try database.query("DROP ROLE IF EXISTS \(participant)")
        try database.query("COMMIT")
        let left = try database.query(
            """
            SELECT (SELECT count(*) FROM hrvmon_study.beats WHERE participant = $1) + (SELECT count(*) FROM hrvmon_study.sessions WHERE participant = $1)
                + (SELECT count(*) FROM hrvmon_study.consents WHERE participant = $1) + (SELECT count(*) FROM hrvmon_study.participants WHERE pseudonym = $1),
                (SELECT count(*) FROM pg_catalog.pg_roles WHERE rolname = $1)
            """, [participant]
        ).rows.first
        erasure.rowsLeft = left?[0].flatMap { Int($0) } ?? -1
        erasure.roleLeft = left?[1] != "0"
        return erasure
    }
}
