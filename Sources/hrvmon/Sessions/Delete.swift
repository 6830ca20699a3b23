import Analysis
import ArgumentParser
import Platform
import Presentation
import UserData

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete sessions for good, optionally with the resting values they added to your baseline.",
        discussion: "Asks first on a terminal; --yes for scripts (without a terminal and without --yes nothing is deleted).")

    @OptionGroup var reference: SessionReference<SessionIDsOnly>

    @Flag(help: "Every session.")
    var all = false

    @Flag(help: "Also remove the resting values these sessions added to the personal baseline.")
    var baseline = false

    @Flag(help: "Do not ask.")
    var yes = false

    func validate() throws {
        try reference.requireOne(orAll: all)
    }

    func run() throws {
        let paths: [String]
        do {
            paths = try reference.path().map { [$0] } ?? SessionStore.all()
        } catch {
            throw badInput(error)
        }
        guard !paths.isEmpty else {
            print("no sessions to delete in \(SessionStore.directory)")
            return
        }
        let ids = Set(paths.map(SessionStore.id(of:)))
        let what = (paths.count == 1 ? "session \(ids.first!)" : "all \(paths.count) sessions")
            + (baseline ? " and the resting values they added to your baseline" : "")
        if !yes, try !confirmDeletion(of: what, asking: "Delete \(what)? This cannot be undone.") { return }
        // Both forms of each: a crash while it was compressed may have left both.
        for path in paths {
            for form in SessionStore.forms(of: path) {
                if let failure = FileSystem.remove(form) {
                    SessionIndex.user.forget(Array(paths.prefix { $0 != path }))
                    throw badInput(DataDirectory.Failure(path: form, reason: failure.description))
                }
            }
        }
        SessionIndex.user.forget(paths)
        var removedDays = 0
        if baseline {
            do {
                removedDays = try DataDirectory.updateHistory { $0.remove { ids.contains($0.source) } }
            } catch {
                throw badInput(error)
            }
        }
        print("deleted \(Formatting.count(paths.count, "session"))" + (baseline ? " and \(Formatting.count(removedDays, "resting measurement")) from the baseline" : ""))
    }
}
