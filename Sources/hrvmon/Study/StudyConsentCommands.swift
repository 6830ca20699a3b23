import ArgumentParser
import Platform
import Presentation
import Study

struct StudyLeave: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Withdraw your consent: nothing more is sent; with --erase, everything you sent is deleted on the server. Your session files stay.")

    @Flag(help: "Also delete on the server everything you sent (sessions, beats, check-ins, answers, notes, events), and check that none is left.")
    var erase = false

    @Flag(help: "Do not ask (for scripts).")
    var yes = false

    func run() throws {
        guard let membership = try studyOutcome({ () throws(StudyFailure) in try Membership.load() }) else {
            return print("not taking part in a study: nothing to leave")
        }
        if membership.left != nil && !erase { return print("you left the study '\(membership.study)' already: nothing is sent") }
        let what = erase ? "leave the study '\(membership.study)' and delete everything you sent it" : "leave the study '\(membership.study)'"
        let deleted = erase ? "everything you sent the study" : "your membership of the study"
        if !yes, !(try confirmDeletion(of: deleted, asking: "Withdraw your consent and \(what)?")) { return }
        let erased = try studyOutcome { () throws(StudyFailure) in
            var change = try ConsentChange(membership: membership, loop: EventLoop())
            return try change.leave(erase: erase)
        }
        print("left the study '\(membership.study)': your withdrawal is recorded on the server; nothing more is sent")
        if let erased { try report(erased) }
        print("your session files on this computer are as they were (`hrvmon delete` deletes them)")
    }
}

struct StudyCategories: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "categories",
        abstract: "Change what you send: --remove stops sending a category and deletes its rows on the server; --add sends one from now on.")

    @Option(help: ArgumentHelp("Stop sending these categories and delete what was sent of them.", valueName: "LIST"))
    var remove: String?

    @Option(help: ArgumentHelp("Send these categories too, from now on (the study must offer them).", valueName: "LIST"))
    var add: String?

    func validate() throws {
        guard remove != nil || add != nil else { throw ValidationError("give --remove LIST or --add LIST") }
        if let remove { _ = try parseCategories(remove) }
        if let add { _ = try parseCategories(add) }
    }

    func run() throws {
        guard let membership = try studyOutcome({ () throws(StudyFailure) in try Membership.load() }) else {
            return print("not taking part in a study (`hrvmon study join INVITE` joins one)")
        }
        guard membership.left == nil else { throw badInput(ValidationError("you left the study '\(membership.study)': there is nothing to change")) }
        let removed = try remove.map(parseCategories) ?? []
        let added = try add.map(parseCategories) ?? []
        let chosen = (membership.categories + added.filter { !membership.categories.contains($0) }).filter { !removed.contains($0) }
        guard !chosen.isEmpty else {
            throw badInput(ValidationError("that would leave no category to send; `hrvmon study leave` withdraws from the study"))
        }
        let (changed, erased) = try studyOutcome { () throws(StudyFailure) in
            var change = try ConsentChange(membership: membership, loop: EventLoop())
            let erased = try change.choose(chosen)
            return (change.membership, erased)
        }
        print("you now send: \(changed.categories.joined(separator: ", ")) (recorded here and on the server)")
        if let erased { try report(erased) }
    }
}

/// What an erasure deleted and what was found when the server was asked again; anything left is a failure.
private func report(_ erased: ConsentChange.Erased) throws {
    print("deleted on the server: \(Formatting.count(erased.beats, "beat")) in \(Formatting.count(erased.sessions, "session")), "
        + "\(Formatting.count(erased.checkIns, "check-in")), \(Formatting.count(erased.labels, "answer")) to \"Was that stress?\", "
        + "\(Formatting.count(erased.notes, "note")), \(Formatting.count(erased.events, "event"))")
    guard erased.rowsLeft == 0 else {
        FileStream.printError("hrvmon: asked again, the server still holds \(erased.rowsLeft) rows of what you asked to delete")
        throw ExitCode(1)
    }
    print("asked again, the server holds none of it")
}
