import Platform
import SessionLog

extension StudyResearcher {
    /// One participant as the researcher sees them: pseudonym, consent, what arrived.
    public struct ParticipantStatus: Sendable {
        public var pseudonym: String
        public var invited: String
        public var consentVersion: Int?
        public var consentSHA256: String?
        public var consented: String?
        public var categories: [String]
        public var withdrawn: Bool
        public var sessions: Int
        public var beats: Int
        public var lastUpload: String?

        public var json: JSONObject {
            var object = JSONObject()
            object.add("participant", pseudonym)
            object.add("invited", invited)
            object.add("consent_version", consentVersion)
            object.add("consent_sha256", consentSHA256)
            object.add("consented", consented)
            object.addStrings("categories", categories)
            object.add("withdrawn", withdrawn)
            object.add("sessions", sessions)
            object.add("beats", beats)
            object.add("last_upload", lastUpload)
            return object
        }
    }

    /// Every participant invited, in the order they were.
    public func status() throws(StudyFailure) -> [ParticipantStatus] {
        let utc = { (column: String) in "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')" }
        let statement = """
            SELECT p.pseudonym, \(utc("p.invited")), c.version, c.sha256, \(utc("c.accepted")),
                array_to_string(c.categories, ','), coalesce(c.withdrawn, false),
                (SELECT count(*) FROM hrvmon_study.sessions s WHERE s.participant = p.pseudonym),
                (SELECT count(*) FROM hrvmon_study.beats b WHERE b.participant = p.pseudonym),
                (SELECT \(utc("max(b.received)")) FROM hrvmon_study.beats b WHERE b.participant = p.pseudonym)
            FROM hrvmon_study.participants p
            LEFT JOIN LATERAL (SELECT * FROM hrvmon_study.consents c WHERE c.participant = p.pseudonym
                ORDER BY c.accepted DESC LIMIT 1) c ON true
            ORDER BY p.invited, p.pseudonym
            """
        return try database.query(statement).rows.map { row in
            ParticipantStatus(
                pseudonym: row[0] ?? "", invited: row[1] ?? "", consentVersion: row[2].flatMap { Int($0) }, consentSHA256: row[3],
                consented: row[4], categories: row[5].map { $0.split(separator: ",").map(String.init) } ?? [], withdrawn: row[6] == "t",
                sessions: Int(row[7] ?? "") ?? 0, beats: Int(row[8] ?? "") ?? 0, lastUpload: row[9])
        }
    }
}
