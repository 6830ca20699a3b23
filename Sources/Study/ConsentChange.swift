import Platform
import StudyDatabase

/// The participant changing their consent after joining: choosing other categories, or leaving
/// the study, each with what it means for the rows already sent. Every change is recorded on the
/// server as a new row of `consents` (a participant may insert its own rows there, never change
/// or read them), the latest of which is what `status` shows; and here, in the membership.
public struct ConsentChange {
    /// What an erasure deleted, and what the server holds of this participant when listed again
    /// afterwards (as this participant sees its own rows: row-level security lets it read them).
    public struct Erased: Sendable {
        public var sessions = 0
        public var beats = 0
        /// Check-ins and answers to "Was that stress?" (category checkins).
        public var checkIns = 0
        public var labels = 0
        /// Notes and events (categories notes, events).
        public var notes = 0
        public var events = 0
        /// Rows of the categories erased that are left, counted afterwards (none, or a failure).
        public var rowsLeft = 0
    }

    public private(set) var membership: Membership
    let database: DatabaseSession

    /// Connects with the credential kept at `join`.
    public init(membership: Membership, loop: EventLoop) throws(StudyFailure) {
        self.membership = membership
        database = try Membership.openDatabase(on: loop)
    }

    /// Withdraws consent: recorded on the server (`withdrawn`) and here, so nothing more is sent;
    /// with `erase`, everything this participant sent is deleted first.
    public mutating func leave(erase: Bool) throws(StudyFailure) -> Erased? {
        let erased = erase ? try self.erase(Array(Self.tables.keys)) : nil
        try record(categories: membership.categories, withdrawn: true)
        let now = WallClock.now()
        membership.left = membership.left ?? "\(now) \(WallClock.iso8601(now))"
        try membership.save()
        return erased
    }

    /// Sends `categories` from now on: recorded on the server and here. A category removed has its
    /// rows deleted on the server (rr: every session and beat; checkins: every check-in and
    /// answer to "Was that stress?"; notes: every note; events: every event); one added counts from now, so that
    /// sessions recorded while it was not chosen are not sent.
    public mutating func choose(_ categories: [String]) throws(StudyFailure) -> Erased? {
        let offered = try database.query("SELECT array_to_string(categories, ',') FROM hrvmon_study.study").single ?? ""
        let notOffered = categories.filter { !offered.split(separator: ",").map(String.init).contains($0) }
        guard notOffered.isEmpty else {
            throw .badInput("--add: \(notOffered.joined(separator: ", ")) not offered; the study offers \(offered.replacingAll(",", with: ", "))")
        }
        let removed = membership.categories.filter { !categories.contains($0) }
        let erased = removed.isEmpty ? nil : try erase(removed)
        try record(categories: categories, withdrawn: false)
        if categories.contains(where: { !membership.categories.contains($0) }) {
            let now = WallClock.now()
            membership.accepted = "\(now) \(WallClock.iso8601(now))"
        }
        membership.categories = categories
        try membership.save()
        return erased
    }

    /// The tables each category sent is kept in.
    static let tables = ["rr": ["beats", "sessions"], "checkins": ["checkins", "episode_labels"], "notes": ["notes"], "events": ["events"]]

    /// Deletes this participant's rows of `categories` in one transaction, then counts what is
    /// left of them. The DELETEs delete only rows this role may also SELECT (row-level security),
    /// so a count taken afterwards, not the DELETE's own, is what says they are gone. A study of
    /// format 6 grants no DELETE (`StudySchema.datedTimesAndOfferedCategories`): its
    /// `erase_own` deletes them.
    private func erase(_ categories: [String]) throws(StudyFailure) -> Erased {
        let tables = categories.sorted().flatMap { Self.tables[$0] ?? [] }
        var deleted: [String: Int] = [:]
        try database.query("BEGIN")
        let format = try database.query("SELECT format FROM hrvmon_study.study").single.flatMap { Int($0) } ?? 0
        for table in tables {
            deleted[table] = format >= 6
                ? try database.query("SELECT hrvmon_study.erase_own($1)", [table]).single.flatMap { Int($0) } ?? 0
                : try database.query("DELETE FROM hrvmon_study.\(table) WHERE participant = current_user").affected
        }
        try database.query("COMMIT")
        let counts = tables.map { "(SELECT count(*) FROM hrvmon_study.\($0) WHERE participant = current_user)" }
        let left = try database.query("SELECT " + counts.joined(separator: " + ")).single
        // What this machine believed sent is sent no more.
        if categories.contains("rr") { try SentState.forgetAll() }
        return Erased(
            sessions: deleted["sessions"] ?? 0, beats: deleted["beats"] ?? 0, checkIns: deleted["checkins"] ?? 0,
            labels: deleted["episode_labels"] ?? 0, notes: deleted["notes"] ?? 0, events: deleted["events"] ?? 0, rowsLeft: left.flatMap { Int($0) } ?? -1)
    }

    private func record(categories: [String], withdrawn: Bool) throws(StudyFailure) {
        try database.query(
            "INSERT INTO hrvmon_study.consents (version, sha256, categories, withdrawn) VALUES ($1, $2, $3::text[], $4)",
            [String(membership.consentVersion), membership.consentSHA256, arrayLiteral(categories), withdrawn ? "true" : "false"])
    }
}
