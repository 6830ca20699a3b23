import ArgumentParser
import UserData

/// The session a command works on, named alike in every command that takes one: SESSION or
/// --session, an id, a unique start of one, or (where `Files` says so) a session file's path;
/// `SessionStore.find` resolves it. The help says what this command takes.
struct SessionReference<Files: SessionFilePaths>: ParsableArguments {
    @Argument(help: ArgumentHelp(
        Files.accepted
            ? "Session id, a unique start of one, or a session file's path, as --session."
            : "Session id or a unique start of one, as --session.",
        valueName: "session"))
    var positional: String?

    @Option(help: ArgumentHelp(
        Files.accepted
            ? "Session id (or a unique start of one), or a session file's path; see `hrvmon sessions`."
            : "Session id (or a unique start of one); see `hrvmon sessions`."))
    var session: String?

    /// The session named, either way; nil when none is.
    var named: String? { positional ?? session }

    /// The file of the session named, as the help says; nil when none is named.
    func path() throws(DataDirectory.Failure) -> String? {
        guard let named else { return nil }
        return try SessionStore.find(named, acceptingPaths: Files.accepted)
    }

    func validate() throws {
        if positional != nil && session != nil { throw ValidationError("name the session once: SESSION or --session") }
    }

    /// For commands that also work on every session: exactly one of the two.
    func requireOne(orAll all: Bool) throws {
        guard (named != nil) != all else { throw ValidationError("name one SESSION (or --session), or --all") }
    }
}

/// Whether a command's SESSION may also be the path of a session file anywhere.
protocol SessionFilePaths {
    static var accepted: Bool { get }
}

/// Sessions in the sessions directory only, by id: `delete` removes nothing else.
enum SessionIDsOnly: SessionFilePaths {
    static let accepted = false
}

/// Sessions by id, or session files by path: `report`, `export`.
enum SessionIDsOrFiles: SessionFilePaths {
    static let accepted = true
}
