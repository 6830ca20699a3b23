import SessionLog
import StudyDatabase

/// The `checkins` category of one session, or of the diary (check-ins made when no session ran):
/// its check-ins and its answers to "Was that stress?", each numbered from 1 in its file's order
/// (the key the server stores it under, with the participant and the session).
struct StudySelfReports {
    typealias CheckIn = (seq: Int, time: Double, mood: Int, doing: String?, company: String?, place: String?)
    /// `end_s`: the episode's end, nil when the session has no such episode.
    typealias Label = (seq: Int, episode: Int, start: Double, end: Double?, answer: String, via: String)

    /// The session's id; empty for the diary.
    var session: String
    var checkIns: [CheckIn] = []
    var labels: [Label] = []

    var isEmpty: Bool { checkIns.isEmpty && labels.isEmpty }

    /// Session `id`'s, but the first `checkInsSent` check-ins and `labelsSent` answers.
    init(_ id: String, _ file: SessionFile, checkInsSent: Int = 0, labelsSent: Int = 0) {
        session = id
        checkIns = file.checkIns.enumerated().dropFirst(checkInsSent).map { index, timed in
            (index + 1, timed.time, timed.checkIn.mood.rawValue, timed.checkIn.doing, timed.checkIn.company, timed.checkIn.place)
        }
        let stress = file.stressEpisodes
        labels = file.labels.enumerated().dropFirst(labelsSent).map { index, label in
            let end = stress.indices.contains(label.episode - 1) ? stress[label.episode - 1].end : nil
            return (index + 1, label.episode, label.start, end, label.answer.rawValue, label.via)
        }
    }

    /// The diary's check-ins from `time` on (numbered among all of its check-ins).
    init(diary entries: [SelfReportRecords.Entry], since time: Double) {
        session = ""
        var seq = 0
        for entry in entries {
            guard case .checkIn(let checkIn, let at) = entry else { continue }
            seq += 1
            if at >= time { checkIns.append((seq, at, checkIn.mood.rawValue, checkIn.doing, checkIn.company, checkIn.place)) }
        }
    }

    /// One statement (both INSERTs in it commit together); a row the server has is not stored
    /// again. Its one row: the check-ins and the answers stored now.
    var statement: (String, [String?]) {
        let numbers = { (values: [String]) in "{" + values.joined(separator: ",") + "}" }
        return (
            """
            WITH c AS (
                INSERT INTO hrvmon_study.checkins (session, seq, time, mood, doing, company, place)
                SELECT $1, u.seq, u.time, u.mood, u.doing, u.company, u.place
                FROM unnest($2::integer[], $3::double precision[], $4::integer[], $5::text[], $6::text[], $7::text[])
                    AS u(seq, time, mood, doing, company, place)
                ON CONFLICT DO NOTHING RETURNING 1),
            l AS (
                INSERT INTO hrvmon_study.episode_labels (session, seq, episode, start_s, end_s, answer, via)
                SELECT $1, u.seq, u.episode, u.start_s, u.end_s, u.answer, u.via
                FROM unnest($8::integer[], $9::integer[], $10::double precision[], $11::double precision[], $12::text[], $13::text[])
                    AS u(seq, episode, start_s, end_s, answer, via)
                ON CONFLICT DO NOTHING RETURNING 1)
            SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM l)
            """,
            [
                session,
                numbers(checkIns.map { String($0.seq) }), numbers(checkIns.map { "\($0.time)" }), numbers(checkIns.map { String($0.mood) }),
                arrayLiteral(checkIns.map(\.doing)), arrayLiteral(checkIns.map(\.company)), arrayLiteral(checkIns.map(\.place)),
                numbers(labels.map { String($0.seq) }), numbers(labels.map { String($0.episode) }), numbers(labels.map { "\($0.start)" }),
                arrayLiteral(labels.map { $0.end.map { "\($0)" } }), arrayLiteral(labels.map(\.answer)), arrayLiteral(labels.map(\.via)),
            ]
        )
    }

    /// The check-ins and answers `statement` stored.
    static func stored(_ result: QueryResult) -> (checkIns: Int, labels: Int) {
        let row = result.rows.first ?? []
        let count = { (column: Int) in row.indices.contains(column) ? row[column].flatMap { Int($0) } ?? 0 : 0 }
        return (count(0), count(1))
    }
}
