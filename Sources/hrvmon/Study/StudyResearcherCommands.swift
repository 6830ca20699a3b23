import ArgumentParser
import Platform
import Presentation
import SessionLog
import Study

struct StudyCreate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Set up a study in an empty PostgreSQL database: schema, roles, row-level security, consent text. Safe to run again.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "The study's name, as participants see it.")
    var name: String

    @Option(help: ArgumentHelp("The consent text participants read and accept (a new version when it changes).", valueName: "FILE"))
    var consent: String

    @Option(help: ArgumentHelp("What participants may send, comma-separated: rr,events,notes,checkins.", valueName: "LIST"))
    var categories = StudyResearcher.categories.joined(separator: ",")

    @Flag(help: "Shift each participant's times by a random whole number of weeks of their own, drawn at join and never sent (docs/guide/study.md#time-shift).")
    var timeShift = false

    func validate() throws {
        _ = try parseCategories(categories)
        if name.trimming(.spacesAndNewlines).isEmpty { throw ValidationError("--name is empty: give the study's name") }
    }

    func run() throws {
        let text = try badInputOnFailure { () throws(FileOpenError) in String(decoding: try InputFile.read(consent), as: UTF8.self) }
        guard !text.trimming(.spacesAndNewlines).isEmpty else { throw badInput(ValidationError("\(consent): the consent text is empty")) }
        let chosen = try parseCategories(categories)
        let created = try studyOutcome { () throws(StudyFailure) in
            try StudyResearcher(uri: database.database, loop: EventLoop()).create(name: name, consent: text, categories: chosen, timeShift: timeShift)
        }
        print("\(created.isNew ? "created" : "already set up:") study '\(name)', consent version \(created.consentVersion)\(timeShift ? ", participants' times shifted" : "")")
        if !created.roleListClosed {
            FileStream.printError(
                "hrvmon: warning: participants can list the server's roles (pg_roles) and so see other pseudonyms; a superuser can close it (docs/guide/study.md)")
        }
    }
}

struct StudyInvite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Write invite files (0600), one per new participant: the study, its server, its CA and a credential for that participant only.")

    @OptionGroup var database: DatabaseOption

    @Option(parsing: .unconditional, help: "How many participants to invite.")
    var count = 1

    @Option(name: .short, help: ArgumentHelp("The directory to write the invites to (created 0700 if missing).", valueName: "DIR"))
    var output: String

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The credential expires this many days from now: join refuses the invite after it, and the server refuses the participant's connections (default: never).",
            valueName: "DAYS"))
    var expires: Int?

    func validate() throws {
        if count < 1 || count > 10000 { throw ValidationError("--count must be 1 to 10000") }
        if let expires, expires < 1 || expires > 36525 { throw ValidationError("--expires must be 1 to 36525 days") }
    }

    func run() throws {
        _ = FileSystem.makeDirectory(output, permissions: 0o700)
        guard FileSystem.status(output)?.kind == .directory else {
            throw badInput(ValidationError("-o \(output): not a directory and cannot be created"))
        }
        let expiry = expires.map { (WallClock.now() + Double($0) * 86_400).rounded(.down) }
        let invites = try studyOutcome { () throws(StudyFailure) in
            try StudyResearcher(uri: database.database, loop: EventLoop()).invite(count: count, expires: expiry)
        }
        for (pseudonym, invite) in invites {
            let path = output + "/" + pseudonym + ".invite"
            if let failure = AtomicFile.write(Array(invite.text.utf8), to: path) {
                FileStream.printError("hrvmon: \(path): cannot write: \(failure)")
                throw ExitCode(1)
            }
            print(path)
        }
    }
}

struct StudyStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Each participant by pseudonym: consent, categories, sessions and beats received, last upload, gaps (recording without beats on the server), withdrawn.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "text or json (an array of one object per participant).")
    var format: ReportFormat = .text

    func run() throws {
        let participants = try studyOutcome { () throws(StudyFailure) in try StudyResearcher(uri: database.database, loop: EventLoop()).status() }
        var output = FileStream.standardOutput
        switch format {
        case .json: output.write("[" + participants.map(\.json.serialized).joined(separator: ",") + "]\n")
        case .text:
            let header = ["participant", "consent", "categories", "sessions", "beats", "last upload", "gaps", "withdrawn"]
            let rows = participants.map { participant in
                [
                    participant.pseudonym, participant.consentVersion.map { "v\($0) \(participant.consented ?? "")" } ?? "not joined",
                    participant.categories.joined(separator: ","), String(participant.sessions), String(participant.beats),
                    participant.lastUpload ?? "-", gapsCell(participant), participant.withdrawn ? "yes" : "no",
                ]
            }
            output.write(Formatting.columns([header] + rows))
        }
        output.flush()
    }

    /// `none`, or how many gaps and their hours together (`2: 1.4 h`).
    private func gapsCell(_ participant: StudyResearcher.ParticipantStatus) -> String {
        participant.gaps.isEmpty ? "none" : "\(participant.gaps.count): \(Formatting.fixed(participant.gapSeconds / 3600, digits: 1)) h"
    }
}

struct StudyErase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "erase",
        abstract: "Delete every row of one participant and their role (an erasure request by mail), then check that nothing is left.")

    @OptionGroup var database: DatabaseOption

    @Argument(help: ArgumentHelp("The participant's pseudonym, as `hrvmon study status` lists it.", valueName: "PARTICIPANT"))
    var participant: String

    func run() throws {
        let erased = try studyOutcome { () throws(StudyFailure) in
            try StudyResearcher(uri: database.database, loop: EventLoop()).erase(participant)
        }
        print(
            "erased \(participant): \(Formatting.count(erased.beats, "beat")), \(Formatting.count(erased.sessions, "session")), "
                + "\(Formatting.count(erased.consents, "consent record")), \(Formatting.count(erased.checkIns, "check-in")), "
                + "\(Formatting.count(erased.labels, "answer")), \(Formatting.count(erased.notes, "note")), "
                + "\(Formatting.count(erased.events, "event")) and the role deleted")
        guard erased.rowsLeft == 0 && !erased.roleLeft else {
            FileStream.printError("hrvmon: \(participant): listed again, the server still holds \(erased.rowsLeft) rows\(erased.roleLeft ? " and the role" : "")")
            throw ExitCode(1)
        }
        print("listed again: the server holds nothing of \(participant)")
    }
}
