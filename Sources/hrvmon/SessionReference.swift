import ArgumentParser
import UserData

/// The session a command works on, named alike in every command that takes one: SESSION or
/// --session, an id, a unique start of one, or (where the command reads files) a file's path;
/// `SessionStore.find` resolves it.
struct SessionReference: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "Session id or a unique start of one, as --session; report and export also take a session file's path.", valueName: "session"))
    var positional: String?

    @Option(help: "Session id (or a unique start of one; report and export: or a path); see `hrvmon sessions`.")
    var session: String?

    /// The session named, either way; nil when none is.
    var named: String? { positional ?? session }

    func validate() throws {
        if positional != nil && session != nil { throw ValidationError("name the session once: SESSION or --session") }
    }

    /// For commands that also work on every session: exactly one of the two.
    func requireOne(orAll all: Bool) throws {
        guard (named != nil) != all else { throw ValidationError("name one SESSION (or --session), or --all") }
    }
}
