import Platform
import StudyDatabase

/// The researcher's side: setting up a study in a database, inviting participants, and the
/// study's state. Each call connects as the researcher (the URI's user, with the password libpq
/// finds in PGPASSWORD or ~/.pgpass) and asks one thing at a time on `loop`.
public struct StudyResearcher {
    public static let categories = ["rr", "events", "notes", "checkins"]

    let database: DatabaseSession
    let parameters: ConnectionParameters

    public init(uri: String, loop: EventLoop) throws(StudyFailure) {
        parameters = try studyConnection(uri)
        database = try connect(parameters, on: loop)
    }

    public struct Created: Sendable {
        public var consentVersion: Int
        public var isNew: Bool
        /// Whether the catalogue's role list could be closed to participants (see StudySchema).
        public var roleListClosed: Bool
    }

    /// Sets up the study, or finds it set up: run again with the same name it adds a consent
    /// version when the text changed and updates the categories offered, nothing else. Whether
    /// participants' times are shifted (`timeShift`) may change only while none has joined: a
    /// participant's shift is drawn at join, and a study half shifted could not be analysed.
    public func create(name: String, consent: String, categories: [String], timeShift: Bool = false) throws(StudyFailure) -> Created {
        let foreign = try database.query(StudySchema.foreignRelations).rows.compactMap { $0[0] }
        if !foreign.isEmpty {
            throw .badInput(
                "the database \(database.connection.database) holds \(foreign.count) tables that are not a hrvmon study's (\(foreign.prefix(3).joined(separator: ", "))): give a database of its own to the study")
        }
        var isNew = false
        if try database.query(StudySchema.schemaExists).single == "0" {
            let group = "hrvmon_participants_" + (try Randomness.hex(bytes: 6))
            // One implicit transaction: the schema and the study's row, or nothing.
            let literal = database.connection.literal
            try database.query(
                StudySchema.creation(group: group) + """

                    INSERT INTO hrvmon_study.study (name, format, participant_role, categories, time_shift)
                    VALUES (\(literal(name)), \(StudySchema.format), '\(group)', \(literal(arrayLiteral(categories)))::text[], \(timeShift));
                    """)
            isNew = true
        } else if let existing = try database.query("SELECT name FROM hrvmon_study.study").single, existing != name {
            throw .badInput("the database \(database.connection.database) holds the study '\(existing)', not '\(name)': give each study a database of its own")
        } else {
            try database.query("UPDATE hrvmon_study.study SET categories = $1::text[]", [arrayLiteral(categories)])
            try migrate()
            try setTimeShift(timeShift)
        }
        let version = try consentVersion(consent)
        var roleListClosed = true
        do { try database.run(StudySchema.closingTheRoleList) } catch { roleListClosed = false }
        return Created(consentVersion: version, isNew: isNew, roleListClosed: roleListClosed)
    }

    /// A study set up by an earlier hrvmon gets what this one's schema has more, in one
    /// transaction: format 1 lacked the `checkins` category's tables, 2 the `notes` category's and
    /// the time shift.
    private func migrate() throws(StudyFailure) {
        guard let study = try database.query("SELECT format, participant_role FROM hrvmon_study.study").rows.first,
            let format = study[0].flatMap({ Int($0) }), format < StudySchema.format, let group = study[1]
        else { return }
        try database.query(StudySchema.upgrades(from: format, group: group) + "UPDATE hrvmon_study.study SET format = \(StudySchema.format);")
    }

    /// Turns the time shift on or off, refused once a participant has joined.
    private func setTimeShift(_ timeShift: Bool) throws(StudyFailure) {
        let current = try database.query("SELECT time_shift, (SELECT count(*) FROM hrvmon_study.consents) FROM hrvmon_study.study").rows.first
        guard let current, (current[0] == "t") != timeShift else { return }
        guard current[1] == "0" else {
            throw .badInput(
                "the study was created \(timeShift ? "without" : "with") --time-shift and participants have joined: their times are sent as they were; "
                    + "run create \(timeShift ? "without" : "with") --time-shift, or set up a new study")
        }
        try database.query("UPDATE hrvmon_study.study SET time_shift = $1", [timeShift ? "true" : "false"])
    }

    /// The version of `consent`: its existing one when the text is unchanged, else the next.
    private func consentVersion(_ consent: String) throws(StudyFailure) -> Int {
        let sha256 = SHA256.hex(Array(consent.utf8))
        let statement = """
            INSERT INTO hrvmon_study.consent_versions (version, text, sha256)
            SELECT coalesce(max(version), 0) + 1, $1, $2 FROM hrvmon_study.consent_versions
            ON CONFLICT (sha256) DO NOTHING
            """
        try database.query(statement, [consent, sha256])
        let version = try database.query("SELECT version FROM hrvmon_study.consent_versions WHERE sha256 = $1", [sha256]).single
        return version.flatMap { Int($0) } ?? 0
    }

    /// `count` new participants' invites: each a new login role in the study's group with a
    /// random password, sent to the server only as its SCRAM verifier. With `expires` (Unix
    /// seconds) the role's password is valid until then (`VALID UNTIL`, which the server enforces,
    /// also after joining) and the invite says so, for `join` to refuse it clearly once past.
    public func invite(count: Int, expires: Double? = nil) throws(StudyFailure) -> [(pseudonym: String, invite: Invite)] {
        guard let study = try database.query("SELECT name, participant_role FROM hrvmon_study.study").rows.first,
            let name = study[0], let group = study[1]
        else {
            throw .badInput("the database \(database.connection.database) holds no study: set one up with `hrvmon study create` first")
        }
        let certificate = try caCertificate()
        var invites: [(pseudonym: String, invite: Invite)] = []
        for _ in 0..<count {
            let pseudonym = "p_" + (try Randomness.hex(bytes: 6))
            let password = try Randomness.hex(bytes: 24)
            guard let verifier = database.connection.scramVerifier(password: password, user: pseudonym) else {
                throw .file("libpq could not make a SCRAM verifier")
            }
            let validUntil = expires.map { " VALID UNTIL '\(Invite.utc($0))'" } ?? ""
            try database.query(
                "CREATE ROLE \(pseudonym) LOGIN CONNECTION LIMIT 8 IN ROLE \(group) PASSWORD \(database.connection.literal(verifier))\(validUntil); "
                    + "INSERT INTO hrvmon_study.participants (pseudonym) VALUES ('\(pseudonym)')")
            let connection = Invite.connection(
                host: database.connection.host, port: database.connection.port, database: database.connection.database, user: pseudonym)
            invites.append((pseudonym, Invite(study: name, connection: connection, password: password, certificate: certificate, expires: expires)))
        }
        return invites
    }

    /// The CA the researcher's own connection was verified against: the study's.
    private func caCertificate() throws(StudyFailure) -> String {
        let path = parameters.value("sslrootcert") ?? (XDGDirectory.path("HOME", fallback: "") + "/.postgresql/root.crt")
        do {
            return String(decoding: try InputFile.read(path), as: UTF8.self)
        } catch {
            throw .file("the study's CA certificate (sslrootcert): \(error)")
        }
    }
}

/// `values` as a PostgreSQL array literal (`{"a","b",NULL}`), for a `$n::text[]` parameter.
func arrayLiteral(_ values: [String?]) -> String {
    "{" + values.map { value in
        value.map { "\"" + $0.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\"" } ?? "NULL"
    }.joined(separator: ",") + "}"
}
