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
        public var sessionsLeft = 0
        public var beatsLeft = 0
    }

    public private(set) var membership: Membership
    let database: DatabaseSession

    /// Connects with the credential kept at `join`.
    public init(membership: Membership, loop: EventLoop) throws(StudyFailure) {
        self.membership = membership
        let invite = try Membership.loadInvite()
        database = try connect(try studyConnection(invite.connection, password: invite.password, caFile: Membership.caFile), on: loop)
    }

    /// Withdraws consent: recorded on the server (`withdrawn`) and here, so nothing more is sent;
    /// with `erase`, every session and beat this participant sent is deleted first.
    public mutating func leave(erase: Bool) throws(StudyFailure) -> Erased? {
        let erased = erase ? try self.erase() : nil
        try record(categories: membership.categories, withdrawn: true)
        let now = WallClock.now()
        membership.left = membership.left ?? "\(now) \(WallClock.iso8601(now))"
        try membership.save()
        return erased
    }

    /// Sends `categories` from now on: recorded on the server and here. A category removed has its
    /// rows deleted on the server (rr: every session and beat); one added counts from now, so that
    /// sessions recorded while it was not chosen are not sent.
    public mutating func choose(_ categories: [String]) throws(StudyFailure) -> Erased? {
        let offered = try database.query("SELECT array_to_string(categories, ',') FROM hrvmon_study.study").single ?? ""
        let notOffered = categories.filter { !offered.split(separator: ",").map(String.init).contains($0) }
        guard notOffered.isEmpty else {
            throw .badInput("--add: \(notOffered.joined(separator: ", ")) not offered; the study offers \(offered.replacingAll(",", with: ", "))")
        }
        let removed = membership.categories.filter { !categories.contains($0) }
        let erased = removed.contains("rr") ? try erase() : nil
        try record(categories: categories, withdrawn: false)
        if categories.contains(where: { !membership.categories.contains($0) }) {
            let now = WallClock.now()
            membership.accepted = "\(now) \(WallClock.iso8601(now))"
        }
        membership.categories = categories
        try membership.save()
        return erased
    }

    /// Deletes this participant's sessions and beats in one transaction, then lists what is left.
    /// The DELETEs delete only rows this role may also SELECT (row-level security), so a count
    /// taken afterwards, not the DELETE's own, is what says they are gone.
    private func erase() throws(StudyFailure) -> Erased {
        var erased = Erased()
        try database.query("BEGIN")
        erased.beats = try database.query("DELETE FROM hrvmon_study.beats WHERE participant = current_user").affected
        erased.sessions = try database.query("DELETE FROM hrvmon_study.sessions WHERE participant = current_user").affected
        try database.query("COMMIT")
        let left = try database.query(
            """
            SELECT (SELECT count(*) FROM hrvmon_study.sessions WHERE participant = current_user),
                (SELECT count(*) FROM hrvmon_study.beats WHERE participant = current_user)
            """
        ).rows.first
        erased.sessionsLeft = left?[0].flatMap { Int($0) } ?? -1
        erased.beatsLeft = left?[1].flatMap { Int($0) } ?? -1
        // What this machine believed sent is sent no more.
        try SentState().save()
        return erased
    }

    private func record(categories: [String], withdrawn: Bool) throws(StudyFailure) {
        try database.query(
            "INSERT INTO hrvmon_study.consents (version, sha256, categories, withdrawn) VALUES ($1, $2, $3::text[], $4)",
            [String(membership.consentVersion), membership.consentSHA256, arrayLiteral(categories), withdrawn ? "true" : "false"])
    }
}
