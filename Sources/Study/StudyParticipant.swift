import Platform
import StudyDatabase

/// The participant's side of joining: the invite read, the server reached with its credential,
/// the study's consent text fetched (and checked against its SHA-256) for the person to read, and
/// on acceptance the consent recorded on the server and here.
public final class JoinOffer {
    public let invite: Invite
    public let consentVersion: Int
    public let consent: String
    public let consentSHA256: String
    public let offeredCategories: [String]
    /// Whether the study shifts its participants' times (`create --time-shift`).
    public let shiftsTimes: Bool
    /// This user's membership of the same study, when joining again: its time shift is kept.
    private let earlier: Membership?
    let database: DatabaseSession

    /// Reads the invite at `path` and fetches the study's current consent with its credential.
    public init(invitePath path: String, loop: EventLoop) throws(StudyFailure) {
        let text: String
        do { text = String(decoding: try InputFile.read(path), as: UTF8.self) } catch { throw .badInput(error.description) }
        do { invite = try Invite(text: text, path: path) } catch { throw .badInput(error.description) }
        // Checked here, before connecting: the server refuses an expired password as it refuses a
        // wrong one, without saying which.
        if let expires = invite.expires, invite.hasExpired(at: WallClock.now()) {
            throw .badInput("\(path): this invite expired on \(Invite.utc(expires)); ask the researcher for a new one")
        }
        earlier = try Membership.load()
        if let member = earlier, !invite.connection.contains("user='\(member.pseudonym)'") {
            throw .badInput("already taking part in the study '\(member.study)' as \(member.pseudonym); one study at a time")
        }
        // The CA must be a file for libpq; it is the invite's, kept with the membership.
        try Membership.store(invite.certificate, at: Membership.caFile)
        database = try connect(try studyConnection(invite.connection, password: invite.password, caFile: Membership.caFile), on: loop)
        // `time_shift` read through to_jsonb: a study of an older format has no such column (and no shift).
        let statement = "SELECT name, array_to_string(categories, ','), to_jsonb(s) ->> 'time_shift' FROM hrvmon_study.study s"
        guard let study = try database.query(statement).rows.first else {
            throw .badInput("\(path): the server holds no study for this invite")
        }
        guard study[0] == invite.study else {
            throw .badInput("\(path): this invite is for the study '\(invite.study)', but its server holds '\(study[0] ?? "")'")
        }
        offeredCategories = (study[1] ?? "").split(separator: ",").map(String.init)
        shiftsTimes = study[2] == "true"
        let latest = "SELECT version, text, sha256 FROM hrvmon_study.consent_versions ORDER BY version DESC LIMIT 1"
        guard let row = try database.query(latest).rows.first, let version = row[0].flatMap({ Int($0) }), let consent = row[1], let sha256 = row[2]
        else { throw .badInput("\(path): the study has no consent text yet; ask the researcher") }
        guard SHA256.hex(Array(consent.utf8)) == sha256 else {
            throw .file("the study's consent text does not match its SHA-256 (\(sha256)); ask the researcher")
        }
        (consentVersion, self.consent, consentSHA256) = (version, consent, sha256)
    }

    /// The pseudonym: the participant's role name, random, made with the invite.
    public var pseudonym: String { database.connection.user }

    /// Records consent to `categories` (nil: every category offered) on the server, then here.
    public func accept(categories: [String]?) throws(StudyFailure) -> Membership {
        let chosen = categories ?? offeredCategories
        let unknown = chosen.filter { !offeredCategories.contains($0) }
        guard unknown.isEmpty, !chosen.isEmpty else {
            throw .badInput("--categories: \(unknown.isEmpty ? "none chosen" : unknown.joined(separator: ", ") + " not offered"); the study offers \(offeredCategories.joined(separator: ", "))")
        }
        try database.query(
            "INSERT INTO hrvmon_study.consents (version, sha256, categories) VALUES ($1, $2, $3::text[])",
            [String(consentVersion), consentSHA256, arrayLiteral(chosen)])
        let now = WallClock.now()
        // Joining again keeps the shift: what was sent with it must stay where it was sent.
        var timeShift = TimeShift.none
        if shiftsTimes {
            let kept = earlier?.timeShift ?? .none
            timeShift = kept == .none ? try TimeShift.random() : kept
        }
        let membership = Membership(
            study: invite.study, pseudonym: pseudonym, consentVersion: consentVersion, consentSHA256: consentSHA256,
            accepted: "\(now) \(WallClock.iso8601(now))", categories: chosen, timeShift: timeShift)
        try Membership.store(invite.text, at: Membership.inviteFile)
        try Membership.store(consent, at: Membership.consentFile)
        try Membership.store(membership.text, at: Membership.file)
        return membership
    }
}
