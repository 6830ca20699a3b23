import ArgumentParser
import Platform

/// Where a session's file goes: `--log PATH`, `--no-log`, or (for `monitor`) the sessions directory.
struct SessionFileOptions: ParsableArguments {
    @Option(help: "Write the session file here instead of the sessions directory (a new or empty file; created 0600).")
    var log: String?

    @Flag(name: .customLong("no-log"), help: "Keep no session file.")
    var noLog = false

    func validate() throws {
        if log != nil && noLog { throw ValidationError("--log and --no-log exclude each other") }
        if let log { try Self.checkDirectory(of: log) }
    }

    /// `--log PATH` names a file the user wants kept, so a directory it cannot be made in is bad
    /// input, said before the session starts (not a notice once it runs, nor a session kept nowhere).
    static func checkDirectory(of path: String) throws {
        let directory = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        switch FileSystem.status(directory)?.kind {
        case .directory: break
        case nil: throw ValidationError("--log \(path): the directory \(directory) does not exist; create it first, or name a file in a directory that exists")
        default: throw ValidationError("--log \(path): \(directory) is not a directory; name a file in a directory")
        }
        if let problem = FileSystem.check(directory, [.write, .execute]) {
            throw ValidationError("--log \(path): cannot create a file in \(directory) (\(problem)); name a file in a directory you may write to")
        }
    }
}
