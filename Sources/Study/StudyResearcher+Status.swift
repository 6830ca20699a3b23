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
        /// Beats the participant's hrvmon said its sessions hold (what the server should have).
        public var beatsRecorded: Int
        public var gaps: [Gap] = []

        /// Seconds of recording without a beat on the server, all gaps together.
        public var gapSeconds: Double { gaps.reduce(0) { $0 + $1.seconds } }

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
            object.add("beats_recorded", beatsRecorded)
            object.add("gap_hours", (gapSeconds / 3600 * 100).rounded() / 100)
            object.add("gaps", gaps.map(\.json))
            return object
        }
    }

    /// A stretch of a recording session with no beat on the server: from the session's start to
    /// its first beat, between two beats, or from its last beat to where the participant's hrvmon
    /// said it was recorded to (its end, or its last beat); at least `StudyResearcher.gapMinimum`
    /// long. The strap off the chest or out of reach, and beats recorded but never sent, are both
    /// gaps: `status` cannot tell them apart, and a researcher needs to see either.
    public struct Gap: Sendable, Equatable {
        public var session: String
        /// Unix seconds.
        public var from: Double
        public var to: Double
        /// The same in UTC, `YYYY-MM-DDTHH:MM:SSZ`, as the server writes its other times.
        public var fromUTC: String
        public var toUTC: String

        public var seconds: Double { to - from }

        var json: JSONObject {
            var object = JSONObject()
            object.add("session", session)
            object.add("from", fromUTC)
            object.add("to", toUTC)
            object.add("seconds", seconds.rounded())
            return object
        }
    }

    /// Every participant invited, in the order they were, with their gaps.
    public func status() throws(StudyFailure) -> [ParticipantStatus] {
        let utc = { (column: String) in "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')" }
        let statement = """
            SELECT p.pseudonym, \(utc("p.invited")), c.version, c.sha256, \(utc("c.accepted")),
                array_to_string(c.categories, ','), coalesce(c.withdrawn, false),
                s.sessions, s.beats, \(utc("s.last_received")), s.recorded
            FROM hrvmon_study.participants p
            LEFT JOIN LATERAL (SELECT * FROM hrvmon_study.consents c WHERE c.participant = p.pseudonym
                ORDER BY c.accepted DESC LIMIT 1) c ON true
            CROSS JOIN LATERAL (SELECT count(*) AS sessions, coalesce(sum(s.beats_received), 0) AS beats,
                max(s.last_received) AS last_received, coalesce(sum(s.recorded_beats), 0) AS recorded
                FROM hrvmon_study.sessions s WHERE s.participant = p.pseudonym) s
            ORDER BY p.invited, p.pseudonym
            """
        var participants = try database.query(statement).rows.map { row in
            ParticipantStatus(
                pseudonym: row[0] ?? "", invited: row[1] ?? "", consentVersion: row[2].flatMap { Int($0) }, consentSHA256: row[3],
                consented: row[4], categories: row[5].map { $0.split(separator: ",").map(String.init) } ?? [], withdrawn: row[6] == "t",
                sessions: Int(row[7] ?? "") ?? 0, beats: Int(row[8] ?? "") ?? 0, lastUpload: row[9], beatsRecorded: Int(row[10] ?? "") ?? 0)
        }
        var gaps: [String: [Gap]] = [:]
        for row in try database.query(Self.gapsStatement(utc), [String(Self.gapMinimum)]).rows {
            guard let participant = row[0], let session = row[1], let from = row[2].flatMap({ Double($0) }), let to = row[3].flatMap({ Double($0) })
            else { continue }
            gaps[participant, default: []].append(Gap(session: session, from: from, to: to, fromUTC: row[4] ?? "", toUTC: row[5] ?? ""))
        }
        for index in participants.indices { participants[index].gaps = gaps[participants[index].pseudonym] ?? [] }
        return participants
    }

    /// Seconds without a beat that make a gap: longer than reconnecting to a strap takes, and than
    /// any interval a strap can send (65535/1024 s).
    public static let gapMinimum = 300

    /// Every gap of every session on the server (see `Gap`), in order of time per participant:
    /// those between two beats as the server keeps them (`beat_gaps`), and those at a session's
    /// ends from its row; a row per session and per gap, none per beat.
    static func gapsStatement(_ utc: (String) -> String) -> String {
        """
        WITH gaps AS (
            SELECT participant, session, from_time, to_time FROM hrvmon_study.beat_gaps WHERE to_time - from_time >= $1::double precision
            UNION ALL
            SELECT participant, session, started, coalesce(first_beat, recorded_until) FROM hrvmon_study.sessions
            WHERE coalesce(first_beat, recorded_until) - started >= $1::double precision
            UNION ALL
            SELECT participant, session, last_beat, recorded_until FROM hrvmon_study.sessions WHERE recorded_until - last_beat >= $1::double precision)
        SELECT participant, session, from_time, to_time, \(utc("to_timestamp(from_time)")), \(utc("to_timestamp(to_time)"))
        FROM gaps ORDER BY participant, from_time
        """
    }
}
