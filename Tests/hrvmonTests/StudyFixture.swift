import Foundation
import TestSupport
import Testing

/// A study in its own database of a PostgreSQL 15 (TestSupport.PrivatePostgres: TLS only,
/// SCRAM), the researcher's commands, and participants with homes of their own.
struct StudyFixture {
    let server: PrivatePostgres
    let database: String

    /// `server`: the process's shared server unless a test needs one to itself (to stop it).
    init(server: PrivatePostgres? = nil) throws {
        self.server = try server ?? PrivatePostgres.shared.get()
        database = try self.server.newDatabase()
    }

    static let consent = "Sleep and stress 2027. We collect your beat-to-beat intervals to study sleep; for 2 years; withdraw with `hrvmon study leave`.\n"

    /// A participant's own home: config (the credential) and data (the sessions) kept across runs.
    struct Participant {
        let home = Hrvmon.freshHome()
        var environment: [String: String] { ["XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "HOME": home] }
        var invite = ""

        func run(_ arguments: [String]) throws -> Hrvmon.Result { try Hrvmon.run(arguments, environment: environment) }

        /// Records a demo session of `minutes` at rest into the sessions directory, at the demo's top speed.
        func record(minutes: Int) throws {
            let demo = try run(["demo", "--save", "--speed", "1000", "--scenario", "rest:\(minutes)m"])
            #expect(demo.status == 0, "\(demo.stderr)")
        }

        /// The beats this participant's session files hold, as `hrvmon sessions` counts them.
        func localBeats() throws -> Int {
            let sessions = try run(["sessions", "--format", "json"])
            let list = try #require(try JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [[String: Any]])
            return list.compactMap { $0["beats"] as? Int }.reduce(0, +)
        }

        /// The session ids, oldest first.
        var sessionIDs: [String] {
            // ID.jsonl while recording, ID.jsonl.gz once closed.
            ((try? FileManager.default.contentsOfDirectory(atPath: home + "/data/hrvmon/sessions")) ?? [])
                .compactMap { name in name.range(of: ".jsonl").map { String(name[..<$0.lowerBound]) } }.sorted()
        }

        /// Session `id`'s lines, decompressed when it is kept as gzip (an ended session).
        func sessionText(_ id: String) throws -> String {
            let path = home + "/data/hrvmon/sessions/\(id).jsonl"
            return try SessionFileContent.text(FileManager.default.fileExists(atPath: path) ? path : path + ".gz")
        }

        /// Session `id` rewritten as `text`, kept as an uncompressed ID.jsonl.
        func replaceSession(_ id: String, with text: String) throws {
            let path = home + "/data/hrvmon/sessions/\(id).jsonl"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try? FileManager.default.removeItem(atPath: path + ".gz")
        }

        var pseudonym: String { URL(fileURLWithPath: invite).deletingPathExtension().lastPathComponent }

        /// The invite's field `key` (`connection`, `password`).
        func inviteField(_ key: String) throws -> String {
            let text = try String(contentsOfFile: invite, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(key + ": ") })
            return String(line.dropFirst(key.count + 2))
        }
    }

    /// psql's run of `sql` with `participant`'s credential from its invite: a client other than
    /// hrvmon, to try what the credential allows.
    func sql(as participant: Participant, _ sql: String) throws -> Hrvmon.Result {
        let connection = try participant.inviteField("connection") + " sslmode=verify-full sslrootcert=\(server.caFile)"
        return try server.psql(connection, password: try participant.inviteField("password"), sql)
    }

    func researcher(_ arguments: [String]) throws -> Hrvmon.Result {
        try Hrvmon.run(arguments, environment: server.researcherEnvironment)
    }

    var uri: String { server.researcherURI(database) }

    func create(
        name: String = "Sleep and stress 2027", consent: String = Self.consent, offering: String = "rr,notes", timeShift: Bool = false
    ) throws -> Hrvmon.Result {
        let file = try Hrvmon.temporaryFile(consent, name: "consent.txt")
        return try researcher(
            ["study", "create", "--database", uri, "--name", name, "--consent", file.path, "--categories", offering] + (timeShift ? ["--time-shift"] : []))
    }

    /// `count` participants invited (with `inviting`, more of `invite`'s options) and joined with
    /// --accept; the n-th choosing `choosing[n]` (`--categories`) when given, else all the study offers.
    func joined(
        _ count: Int, offering: String = "rr,notes", choosing: [String]? = nil, timeShift: Bool = false, inviting: [String] = []
    ) throws -> [Participant] {
        let created = try create(offering: offering, timeShift: timeShift)
        #expect(created.status == 0, "\(created.stderr)")
        let directory = Hrvmon.freshHome()
        let invited = try researcher(["study", "invite", "--database", uri, "--count", String(count), "-o", directory] + inviting)
        #expect(invited.status == 0, "\(invited.stderr)")
        let invites = invited.stdout.split(separator: "\n").map(String.init)
        #expect(invites.count == count)
        return try invites.enumerated().map { index, invite in
            var participant = Participant()
            participant.invite = invite
            let joined = try participant.run(["study", "join", invite, "--accept"] + (choosing.map { ["--categories", $0[index]] } ?? []))
            #expect(joined.status == 0, "\(joined.stderr)")
            return participant
        }
    }

    /// `participant`'s rows in `table` of the study's schema, as the researcher counts them.
    func serverRows(_ table: String, of participant: Participant) throws -> Int {
        let result = try server.researcherSQL(database, "SELECT count(*) FROM hrvmon_study.\(table) WHERE participant = '\(participant.pseudonym)'")
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// The first column of `sql`'s rows, as the researcher reads them.
    func serverColumn(_ sql: String) throws -> [String] {
        let result = try server.researcherSQL(database, sql)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Beats on the server: all rows, and distinct (participant, session, seq) keys.
    func serverBeats(_ participant: Participant? = nil) throws -> (rows: Int, distinct: Int) {
        let filter = participant.map { "WHERE participant = '\($0.pseudonym)'" } ?? ""
        let result = try server.researcherSQL(
            database, "SELECT count(*), count(DISTINCT (participant, session, seq)) FROM hrvmon_study.beats \(filter)")
        let numbers = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").compactMap { Int($0) }
        #expect(numbers.count == 2, "\(result.stderr)")
        return (numbers.first ?? -1, numbers.last ?? -1)
    }
}
