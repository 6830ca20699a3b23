import Exports
import Presentation
import SessionLog
import Study

/// The `checkins`, `notes` and `events` categories of a pulled study, as files of their own beside
/// the beats: csv and jsonl `checkins.*`, `labels.*` (answers to "Was that stress?"), `notes.*` and
/// `events.*`; bids, the dataset's phenotype files `phenotype/checkins.tsv`,
/// `phenotype/episodelabels.tsv`, `phenotype/notes.tsv` and `phenotype/sessionevents.tsv`, each
/// with its JSON sidecar. A check-in's `session` is empty (csv, jsonl) or `n/a` (bids) when it is the
/// diary's: made when no session ran.
enum StudySelfReportFiles {
    /// Each column: its name, what it means, and each row's value (nil: none).
    typealias Column<Row> = (name: String, description: String, value: @Sendable (Row) -> SelfReportValue?)

    enum SelfReportValue: Sendable {
        case text(String), integer(Int), number(Double)

        /// As a cell of a table, the text made a cell by `cell`.
        func rendered(_ cell: (String) -> String) -> String {
            switch self {
            case .text(let text): cell(text)
            case .integer(let value): String(value)
            case .number(let value): "\(value)"
            }
        }
    }

    static let checkInColumns: [Column<StudyResearcher.PulledSelfReports.CheckIn>] = [
        ("session", "the session's id; none for a check-in of the diary (made when no session ran)", { $0.session.isEmpty ? nil : .text($0.session) }),
        ("seq", "its place among the session's (or the diary's) check-ins, from 1", { .integer($0.seq) }),
        ("t", "when it was made, Unix seconds", { .number($0.time) }),
        ("mood", "How are you feeling? 1 awful, 2 low, 3 okay, 4 good, 5 great", { .integer($0.mood) }),
        ("doing", "What are you doing? (a tag: lower case, trimmed)", { $0.doing.map(SelfReportValue.text) }),
        ("with", "Who are you with?", { $0.company.map(SelfReportValue.text) }),
        ("where", "Where are you?", { $0.place.map(SelfReportValue.text) }),
    ]

    static let labelColumns: [Column<StudyResearcher.PulledSelfReports.Label>] = [
        ("session", "the session's id", { .text($0.session) }),
        ("seq", "its place among the session's answers, from 1 (a later answer about an episode replaces an earlier)", { .integer($0.seq) }),
        ("episode", "the session's stress episode it answers about, from 1", { .integer($0.episode) }),
        ("start_s", "the episode's start, seconds into the session", { .number($0.start) }),
        ("end_s", "the episode's end, seconds into the session", { $0.end.map(SelfReportValue.number) }),
        ("answer", "Was that stress? yes, no or unsure", { .text($0.answer) }),
        ("via", "where it was answered: notification, dashboard or command", { .text($0.via) }),
    ]

    static let noteColumns: [Column<StudyResearcher.PulledSelfReports.Note>] = [
        ("session", "the session's id", { .text($0.session) }),
        ("seq", "its place among the session's notes, from 1", { .integer($0.seq) }),
        ("t", "when it was made, Unix seconds", { .number($0.time) }),
        ("text", "the note as the participant wrote it during the session", { .text($0.text) }),
    ]

    static let eventColumns: [Column<StudyResearcher.PulledSelfReports.Event>] = [
        ("session", "the session's id", { .text($0.session) }),
        ("kind", "stress or activity (an episode), exercise (a breathing exercise started or stopped), suggestion, link (the strap's link changed)", { .text($0.kind) }),
        ("seq", "its place among the session's events of its kind, from 1", { .integer($0.seq) }),
        ("t", "when it happened, Unix seconds; none for an episode, which is placed by start_s", { $0.time.map(SelfReportValue.number) }),
        ("start_s", "seconds into the session: an episode's start, an exercise's or suggestion's place", { $0.start.map(SelfReportValue.number) }),
        ("end_s", "an episode's end, seconds into the session", { $0.end.map(SelfReportValue.number) }),
        ("detail", "an episode's peak level, an exercise's event and pattern, a suggestion's reason and pattern, a link's state and detail", { $0.detail.map(SelfReportValue.text) }),
    ]

    static func files(_ pulled: StudyResearcher.PulledSelfReports, format: StudyPull.Format) -> [BIDSPhysio.File] {
        [
            file("checkins", pulled.checkIns, checkInColumns, participant: \.participant, format: format),
            file(format == .bids ? "episodelabels" : "labels", pulled.labels, labelColumns, participant: \.participant, format: format),
            file("notes", pulled.notes, noteColumns, participant: \.participant, format: format),
            file(format == .bids ? "sessionevents" : "events", pulled.events, eventColumns, participant: \.participant, format: format),
        ].flatMap { $0 }
    }

    private static func file<Row>(
        _ name: String, _ rows: [Row], _ columns: [Column<Row>], participant: KeyPath<Row, String>, format: StudyPull.Format
    ) -> [BIDSPhysio.File] {
        switch format {
        case .jsonl:
            let lines = rows.map { row in
                var record = JSONObject()
                record.add("participant", row[keyPath: participant])
                for column in columns {
                    switch column.value(row) {
                    case .text(let text): record.add(column.name, text)
                    case .integer(let value): record.add(column.name, value)
                    case .number(let value): record.add(column.name, value)
                    case nil: record.add(column.name, nil as String?)
                    }
                }
                return record.serialized + "\n"
            }
            return [BIDSPhysio.File(path: name + ".jsonl", bytes: Array(lines.joined().utf8))]
        case .csv:
            let header = (["participant"] + columns.map(\.name)).joined(separator: ",") + "\n"
            let lines = rows.map { row in
                ([CSV.field(row[keyPath: participant])] + columns.map { $0.value(row)?.rendered(CSV.field) ?? "" }).joined(separator: ",") + "\n"
            }
            return [BIDSPhysio.File(path: name + ".csv", bytes: Array((header + lines.joined()).utf8))]
        case .bids:
            // A BIDS phenotype file: participant_id first, n/a for no value, no tab or newline in a value.
            let cell = { (text: String) in String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 }) }
            let header = (["participant_id"] + columns.map(\.name)).joined(separator: "\t") + "\n"
            let lines = rows.map { row in
                (["sub-" + StudyPull.subject(row[keyPath: participant])] + columns.map { $0.value(row)?.rendered(cell) ?? "n/a" })
                    .joined(separator: "\t") + "\n"
            }
            var sidecar = JSONObject()
            for column in columns {
                var description = JSONObject()
                description.add("Description", column.description)
                sidecar.add(column.name, description)
            }
            return [
                BIDSPhysio.File(path: "phenotype/\(name).tsv", bytes: Array((header + lines.joined()).utf8)),
                BIDSPhysio.File(path: "phenotype/\(name).json", bytes: Array((sidecar.serialized + "\n").utf8)),
            ]
        }
    }

}
