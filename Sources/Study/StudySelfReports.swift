import SessionLog
import StudyDatabase

/// What the participant reported of one session, or of the diary (check-ins made when no session
/// ran), in the categories chosen: `checkins` (its check-ins and answers to "Was that stress?")
/// and `notes` (its notes), each numbered from 1 in its file's order (the key the server stores it
/// under, with the participant and the session).
struct StudySelfReports {
    typealias CheckIn = (seq: Int, time: Double, mood: Int, doing: String?, company: String?, place: String?)
    /// `end_s`: the episode's end, nil when the session has no such episode.
    typealias Label = (seq: Int, episode: Int, start: Double, end: Double?, answer: String, via: String)
    typealias Note = (seq: Int, time: Double, text: String)

    /// Which of them are sent: the categories `checkins` and `notes`.
    struct Categories {
        var checkIns: Bool
        var notes: Bool

        init(_ chosen: [String]) {
            checkIns = chosen.contains("checkins")
            notes = chosen.contains("notes")
        }

        var any: Bool { checkIns || notes }
    }

    /// How many of a session's check-ins, answers and notes the server has: those are not sent again.
    struct Counts: Equatable {
        var checkIns = 0
        var labels = 0
        var notes = 0
    }

    /// The session's id; empty for the diary.
    var session: String
    var checkIns: [CheckIn] = []
    var labels: [Label] = []
    var notes: [Note] = []

    var isEmpty: Bool { checkIns.isEmpty && labels.isEmpty && notes.isEmpty }

    /// Session `id`'s, of the categories chosen, but the first ones `sent`.
    init(_ id: String, _ file: SessionFile, _ categories: Categories, sent: Counts = Counts()) {
        session = id
        if categories.checkIns {
            checkIns = file.checkIns.enumerated().dropFirst(sent.checkIns).map { index, timed in
                (index + 1, timed.time, timed.checkIn.mood.rawValue, timed.checkIn.doing, timed.checkIn.company, timed.checkIn.place)
            }
            let stress = file.stressEpisodes
            labels = file.labels.enumerated().dropFirst(sent.labels).map { index, label in
                let end = stress.indices.contains(label.episode - 1) ? stress[label.episode - 1].end : nil
                return (index + 1, label.episode, label.start, end, label.answer.rawValue, label.via)
            }
        }
        if categories.notes {
            notes = file.notes.enumerated().dropFirst(sent.notes).map { index, note in (index + 1, note.time, note.text) }
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

    /// The same as the server is sent them: times and the session's id moved by `shift` (an
    /// answer's episode is placed in seconds into its session, which a shift does not change).
    func shifted(by shift: TimeShift) -> StudySelfReports {
        var shifted = self
        shifted.session = shift.session(session)
        shifted.checkIns = checkIns.map { ($0.seq, shift.time($0.time), $0.mood, $0.doing, $0.company, $0.place) }
        shifted.notes = notes.map { ($0.seq, shift.time($0.time), $0.text) }
        return shifted
    }

    /// One statement (its INSERTs commit together); a row the server has is not stored again. Its
    /// one row: the check-ins, the answers and the notes stored now. The notes' INSERT is there
    /// only with notes to send: a study of format 2 (not yet migrated by `create`) has no such table.
    var statement: (String, [String?]) {
        let numbers = { (values: [String]) in "{" + values.joined(separator: ",") + "}" }
        let notesInsert = notes.isEmpty ? "" : """
            ,
            n AS (
                INSERT INTO hrvmon_study.notes (session, seq, time, text)
                SELECT $1, u.seq, u.time, u.text FROM unnest($14::integer[], $15::double precision[], $16::text[]) AS u(seq, time, text)
                ON CONFLICT DO NOTHING RETURNING 1)
            """
        let notesParameters = notes.isEmpty ? [] : [numbers(notes.map { String($0.seq) }), numbers(notes.map { "\($0.time)" }), arrayLiteral(notes.map(\.text))]
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
                ON CONFLICT DO NOTHING RETURNING 1)\(notesInsert)
            SELECT (SELECT count(*) FROM c), (SELECT count(*) FROM l), \(notes.isEmpty ? "0" : "(SELECT count(*) FROM n)")
            """,
            [
                session,
                numbers(checkIns.map { String($0.seq) }), numbers(checkIns.map { "\($0.time)" }), numbers(checkIns.map { String($0.mood) }),
                arrayLiteral(checkIns.map(\.doing)), arrayLiteral(checkIns.map(\.company)), arrayLiteral(checkIns.map(\.place)),
                numbers(labels.map { String($0.seq) }), numbers(labels.map { String($0.episode) }), numbers(labels.map { "\($0.start)" }),
                arrayLiteral(labels.map { $0.end.map { "\($0)" } }), arrayLiteral(labels.map(\.answer)), arrayLiteral(labels.map(\.via)),
            ] + notesParameters
        )
    }

    /// The check-ins, answers and notes `statement` stored.
    static func stored(_ result: QueryResult) -> Counts {
        let row = result.rows.first ?? []
        let count = { (column: Int) in row.indices.contains(column) ? row[column].flatMap { Int($0) } ?? 0 : 0 }
        return Counts(checkIns: count(0), labels: count(1), notes: count(2))
    }
}
