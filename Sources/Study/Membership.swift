import Platform
import StudyDatabase
import UserData

/// What a participant keeps of the study, in `$XDG_CONFIG_HOME/hrvmon/study/` (0700): the
/// invite, which holds the credential (`invite`, 0600), the study's CA (`ca.pem`), the consent
/// text as accepted (`consent.txt`), and `membership`: `key: value` lines of the study, the
/// pseudonym, the consent's version, SHA-256 and time, the categories chosen, the participant's
/// time shift when the study shifts times (never sent: `TimeShift`), and when consent was withdrawn
/// (`leave`), after which nothing is sent.
public struct Membership: Equatable, Sendable {
    public var study: String
    public var pseudonym: String
    public var consentVersion: Int
    public var consentSHA256: String
    public var accepted: String
    public var categories: [String]
    /// How far this participant's times are moved before they are sent; `.none` unless the study asks.
    public var timeShift = TimeShift.none
    /// When the participant left the study (`Unix-seconds ISO-8601`); nil while taking part.
    public var left: String? = nil

    public static var directory: String { XDGDirectory.config + "/hrvmon/study" }
    static var file: String { directory + "/membership" }
    static var inviteFile: String { directory + "/invite" }
    static var caFile: String { directory + "/ca.pem" }
    static var consentFile: String { directory + "/consent.txt" }

    var text: String {
        """
        study: \(study)
        pseudonym: \(pseudonym)
        consent-version: \(consentVersion)
        consent-sha256: \(consentSHA256)
        accepted: \(accepted)
        categories: \(categories.joined(separator: ","))

        """ + (timeShift == .none ? "" : "time-shift-weeks: \(timeShift.weeks)\n") + (left.map { "left: \($0)\n" } ?? "")
    }

    /// The membership recorded by `join`; nil when this user has joined no study.
    public static func load() throws(StudyFailure) -> Membership? {
        guard FileSystem.exists(file) else { return nil }
        let text: String
        do { text = String(decoding: try InputFile.read(file), as: UTF8.self) } catch { throw .file("\(error)") }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...].dropFirst())
        }
        guard let study = fields["study"], let pseudonym = fields["pseudonym"], let version = fields["consent-version"].flatMap({ Int($0) }),
            let sha256 = fields["consent-sha256"], let accepted = fields["accepted"], let categories = fields["categories"]
        else {
            throw .badInput("\(file): damaged (a line is missing); join the study again with the invite")
        }
        var timeShift = TimeShift.none
        if let text = fields["time-shift-weeks"] {
            guard let weeks = Int(text) else { throw .badInput("\(file): damaged (its time-shift-weeks is not a number); keep the file as join wrote it") }
            timeShift = TimeShift(weeks: weeks)
        }
        return Membership(
            study: study, pseudonym: pseudonym, consentVersion: version, consentSHA256: sha256, accepted: accepted,
            categories: categories.split(separator: ",").map(String.init), timeShift: timeShift, left: fields["left"])
    }

    /// The invite kept at `join`, whose credential `sync` connects with.
    static func loadInvite() throws(StudyFailure) -> Invite {
        do {
            return try Invite(text: String(decoding: try InputFile.read(inviteFile), as: UTF8.self), path: inviteFile)
        } catch let invalid as Invite.Invalid {
            throw .badInput(invalid.description)
        } catch {
            throw .file("\(error)")
        }
    }

    /// A session with the study's database on the credential kept at `join` (`sync`, `categories`,
    /// `leave`). PostgreSQL refuses an expired password as any other; when the invite's own
    /// `expires:` has passed, the refusal says so, with the date.
    static func openDatabase(on loop: EventLoop) throws(StudyFailure) -> DatabaseSession {
        let invite = try loadInvite()
        do {
            return try connect(try studyConnection(invite.connection, password: invite.password, caFile: caFile), on: loop)
        } catch {
            guard case .database(var failure) = error, failure.kind == .credential, let expires = invite.expires, invite.hasExpired(at: WallClock.now())
            else { throw error }
            failure.detail += "; the invite expired on \(Invite.utc(expires))"
            throw .database(failure)
        }
    }

    /// Writes `text` to `path` in `directory` (the study's configuration, or its data for the sent
    /// state), made 0700 when missing; the file 0600, whole or not at all.
    static func store(_ text: String, at path: String, in directory: String = Membership.directory) throws(StudyFailure) {
        do { try DataDirectory.makePrivateDirectory(directory) } catch { throw .file(error.description) }
        if let failure = AtomicFile.write(Array(text.utf8), to: path) { throw .file("\(path): \(failure)") }
    }
}

extension Membership {
    /// When consent was given, Unix seconds: sessions that started before it are not sent.
    public var acceptedTime: Double { Double(accepted.prefix { $0 != " " }) ?? .infinity }

    /// Kept here: the membership as it is now.
    func save() throws(StudyFailure) { try Self.store(text, at: Self.file) }
}
