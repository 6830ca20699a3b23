import SessionLog
import StudyDatabase

/// What a session (or the diary: check-ins made when no session ran) holds of the categories
/// chosen besides its beats: `checkins` (its check-ins and answers to "Was that stress?"), `notes`
/// (its notes) and `events` (what the session recorded about itself: stress and activity episodes,
/// breathing exercises, suggestions, link changes). Each is numbered from 1 in its file's order —
/// events among those of their kind — which, with the participant and the session, is the key the
/// server stores it under: the files are only appended to, so the numbers never change.
struct StudySelfReports {
    typealias CheckIn = (seq: Int, time: Double, mood: Int, doing: String?, company: String?, place: String?)
    /// `end_s`: the episode's end, nil when the session has no such episode.
    typealias Label = (seq: Int, episode: Int, start: Double, end: Double?, answer: String, via: String)
    typealias Note = (seq: Int, time: Double, text: String)
    /// `time`: Unix seconds, for the events that carry a clock time; `start`, `end`: seconds into
    /// the session (an episode's span on the beat timeline, an exercise's or suggestion's place).
    typealias Event = (kind: String, seq: Int, time: Double?, start: Double?, end: Double?, detail: String?)

    /// Which of them are sent: the categories `checkins`, `notes` and `events`.
    struct Categories {
        var checkIns: Bool
        var notes: Bool
        var events: Bool

        init(_ chosen: [String]) {
            checkIns = chosen.contains("checkins")
            notes = chosen.contains("notes")
            events = chosen.contains("events")
        }

        var any: Bool { checkIns || notes || events }
    }

    /// How many of a session's check-ins, answers, notes and events (by kind) the server has:
    /// those are not sent again.
    struct Sent: Equatable {
        var checkIns = 0
        var labels = 0
        var notes = 0
        var events: [String: Int] = [:]

        /// All that `file` holds.
        init(_ file: SessionFile) {
            (checkIns, labels, notes) = (file.checkIns.count, file.labels.count, file.notes.count)
            for event in StudySelfReports.events(of: file) { events[event.kind, default: 0] += 1 }
        }

        init() {}
    }

    /// What one statement stored.
    struct Stored: Equatable {
        var checkIns = 0
        var labels = 0
        var notes = 0
        var events = 0
    }

    /// The session's id; empty for the diary.
    var session: String
    var checkIns: [CheckIn] = []
    var labels: [Label] = []
    var notes: [Note] = []
    var events: [Event] = []

    var isEmpty: Bool { checkIns.isEmpty && labels.isEmpty && notes.isEmpty && events.isEmpty }

    /// Session `id`'s, of the categories chosen, but those `sent`.
    init(_ id: String, _ file: SessionFile, _ categories: Categories, sent: Sent = Sent()) {
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
        if categories.events {
            events = Self.events(of: file).filter { $0.seq > sent.events[$0.kind, default: 0] }
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

    /// `file`'s events, each kind numbered from 1 in the file's order.
    static func events(of file: SessionFile) -> [Event] {
        var events: [Event] = []
        func add(_ kind: String, _ rows: [(time: Double?, start: Double?, end: Double?, detail: String?)]) {
            events += rows.enumerated().map { index, row in (kind, index + 1, row.time, row.start, row.end, row.detail) }
        }
        for kind in ["stress", "activity"] {
            add(kind, file.episodes.filter { $0.kind.rawValue == kind }.map { (nil, $0.start, $0.end, $0.peakLevel.map { "peak level \($0)" }) })
        }
        add("exercise", file.exercises.map { ($0.time, $0.sessionSeconds, nil, "\($0.kind.rawValue) \($0.pattern)") })
        add("suggestion", file.suggestions.map { ($0.time, $0.sessionSeconds, nil, "\($0.reason): \($0.pattern)") })
        add("link", file.links.map { ($0.time, nil, nil, $0.detail.isEmpty ? $0.state : "\($0.state): \($0.detail)") })
        return events
    }

    /// The same as the server is sent them: clock times and the session's id moved by `shift`
    /// (seconds into the session, as answers and episodes are placed, a shift does not change).
    func shifted(by shift: TimeShift) -> StudySelfReports {
        var shifted = self
        shifted.session = shift.session(session)
        shifted.checkIns = checkIns.map { ($0.seq, shift.time($0.time), $0.mood, $0.doing, $0.company, $0.place) }
        shifted.notes = notes.map { ($0.seq, shift.time($0.time), $0.text) }
        shifted.events = events.map { ($0.kind, $0.seq, $0.time.map(shift.time), $0.start, $0.end, $0.detail) }
        return shifted
    }

    /// One statement (its INSERTs commit together); a row the server has is not stored again. Its
    /// one row: the check-ins, answers, notes and events stored now. A table is named only when
    /// there are rows for it: a study of format 2 (not yet migrated by `create`) has no `notes` or
    /// `events`, and a participant who sends none of them still sends check-ins to it.
    var statement: (String, [String?]) {
        var parameters: [String?] = [session]
        var inserts: [String: String] = [:]
        func insert(_ table: String, _ columns: [(name: String, type: String, values: [String?])]) {
            guard columns.first?.values.isEmpty == false else { return }
            let arrays = columns.map { column in
                parameters.append(arrayLiteral(column.values))
                return "$\(parameters.count)::\(column.type)[]"
            }
            let names = columns.map(\.name).joined(separator: ", ")
            inserts[table] = """
                INSERT INTO hrvmon_study.\(table) (session, \(names))
                SELECT $1, \(columns.map { "u." + $0.name }.joined(separator: ", ")) FROM unnest(\(arrays.joined(separator: ", "))) AS u(\(names))
                ON CONFLICT DO NOTHING RETURNING 1
                """
        }
        let number = { (value: Double) in "\(value)" }
        insert("checkins", [
            ("seq", "integer", checkIns.map { String($0.seq) }), ("time", "double precision", checkIns.map { number($0.time) }),
            ("mood", "integer", checkIns.map { String($0.mood) }), ("doing", "text", checkIns.map(\.doing)),
            ("company", "text", checkIns.map(\.company)), ("place", "text", checkIns.map(\.place)),
        ])
        insert("episode_labels", [
            ("seq", "integer", labels.map { String($0.seq) }), ("episode", "integer", labels.map { String($0.episode) }),
            ("start_s", "double precision", labels.map { number($0.start) }), ("end_s", "double precision", labels.map { $0.end.map(number) }),
            ("answer", "text", labels.map(\.answer)), ("via", "text", labels.map(\.via)),
        ])
        insert("notes", [
            ("seq", "integer", notes.map { String($0.seq) }), ("time", "double precision", notes.map { number($0.time) }),
            ("text", "text", notes.map(\.text)),
        ])
        insert("events", [
            ("kind", "text", events.map(\.kind)), ("seq", "integer", events.map { String($0.seq) }),
            ("time", "double precision", events.map { $0.time.map(number) }), ("start_s", "double precision", events.map { $0.start.map(number) }),
            ("end_s", "double precision", events.map { $0.end.map(number) }), ("detail", "text", events.map(\.detail)),
        ])
        let tables = Self.tables.filter { inserts[$0] != nil }
        let counts = Self.tables.map { table in tables.firstIndex(of: table).map { "(SELECT count(*) FROM i\($0))" } ?? "0" }
        let with = tables.enumerated().map { index, table in "i\(index) AS (\(inserts[table]!))" }.joined(separator: ",\n")
        return ("WITH " + with + "\nSELECT " + counts.joined(separator: ", "), parameters)
    }

    /// The tables `statement` inserts into, in the order of its row's counts.
    private static let tables = ["checkins", "episode_labels", "notes", "events"]

    /// The check-ins, answers, notes and events `statement` stored.
    static func stored(_ result: QueryResult) -> Stored {
        let row = result.rows.first ?? []
        let count = { (column: Int) in row.indices.contains(column) ? row[column].flatMap { Int($0) } ?? 0 : 0 }
        return Stored(checkIns: count(0), labels: count(1), notes: count(2), events: count(3))
    }
}
