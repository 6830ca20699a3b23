import ArgumentParser
import Platform
import Presentation
import Study
import UserData

struct StudyJoin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Take part in a study: read its consent text, accept it, keep the invite's credential (0600) in the config directory.")

    @Argument(help: ArgumentHelp("The invite file the researcher sent.", valueName: "INVITE"))
    var invite: String

    @Flag(help: "Accept the consent text without being asked (for scripts; it is still printed).")
    var accept = false

    @Option(help: ArgumentHelp("Send only these of the categories the study offers (default: all it offers).", valueName: "LIST"))
    var categories: String?

    func validate() throws {
        if let categories { _ = try parseCategories(categories) }
    }

    func run() throws {
        let chosen = try categories.map(parseCategories)
        if !accept && !Terminal.isTerminal(.input) {
            throw badInput(ValidationError("refusing to join without --accept when the consent cannot be asked on a terminal"))
        }
        let offer = try studyOutcome { () throws(StudyFailure) in try JoinOffer(invitePath: invite, loop: EventLoop()) }
        print("Study: \(offer.invite.study)\nConsent, version \(offer.consentVersion) (SHA-256 \(offer.consentSHA256)):\n")
        print(offer.consent)
        print("\nCategories offered: \(offer.offeredCategories.joined(separator: ", ")); you would send: \((chosen ?? offer.offeredCategories).joined(separator: ", "))")
        if !accept {
            print("Do you consent and take part? [y/N] ", terminator: "")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                print("not joined: nothing was recorded")
                return
            }
        }
        let membership = try studyOutcome { () throws(StudyFailure) in try offer.accept(categories: chosen) }
        print("joined '\(membership.study)' as \(membership.pseudonym); consent version \(membership.consentVersion) recorded here and on the server")
        if membership.timeShift != .none {
            print("the study shifts times: yours are sent moved by a random offset that stays on this computer")
        }
        print("sessions you record from now on are sent by `hrvmon study sync`")
    }
}

struct StudySyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the study what it has not received of the sessions recorded since you joined; exit 0 when there is nothing to send.")

    func run() throws {
        if let membership = try studyOutcome({ () throws(StudyFailure) in try Membership.load() }), membership.left != nil {
            return print("you left the study '\(membership.study)': nothing is sent")
        }
        let sent = try studyOutcome { () throws(StudyFailure) -> StudySync.Report? in
            guard let membership = try Membership.load() else { return nil }
            return try StudySync(membership: membership, loop: EventLoop()).send(sessions: SessionStore.all()) { print($0) }
        }
        guard let sent else { return print("not taking part in a study: nothing to send") }
        let selfReports = sent.checkInsSent + sent.labelsSent + sent.notesSent + sent.eventsSent
        if sent.beatsSent == 0 && selfReports == 0 && sent.damaged.isEmpty { return print("nothing to send: the study has everything you chose to send") }
        if sent.beatsSent > 0 { print("sent \(sent.beatsSent) beats of \(sent.sessionsSent) sessions") }
        if sent.checkInsSent + sent.labelsSent > 0 { print("sent \(sent.checkInsSent) check-ins and \(sent.labelsSent) answers to \"Was that stress?\"") }
        if sent.notesSent > 0 { print("sent \(Formatting.count(sent.notesSent, "note"))") }
        if sent.eventsSent > 0 { print("sent \(Formatting.count(sent.eventsSent, "event"))") }
        guard sent.damaged.isEmpty else {
            for damaged in sent.damaged {
                FileStream.printError(
                    "hrvmon: study sync: \(damaged): nothing of this session was sent and where to resume it is kept; "
                        + "repair the file or move it out of the sessions directory, then run `hrvmon study sync` again")
            }
            throw ExitCode.failure
        }
    }
}

struct StudyShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Which study you take part in, what has been sent and what is waiting (no server needed).")

    func run() throws {
        guard let membership = try studyOutcome({ () throws(StudyFailure) in try Membership.load() }) else {
            return print("not taking part in a study (`hrvmon study join INVITE` joins one)")
        }
        var output = FileStream.standardOutput
        output.write(StudyShow.text(membership, StudyShow.summary(membership, sessions: SessionStore.all())))
        output.flush()
    }
}
