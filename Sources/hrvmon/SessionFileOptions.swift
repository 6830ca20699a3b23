import ArgumentParser

/// Where a session's file goes: `--log PATH`, `--no-log`, or (for `monitor`) the sessions directory.
struct SessionFileOptions: ParsableArguments {
    @Option(help: "Write the session file here instead of the sessions directory (a new or empty file; created 0600).")
    var log: String?

    @Flag(name: .customLong("no-log"), help: "Keep no session file.")
    var noLog = false

    func validate() throws {
        if log != nil && noLog { throw ValidationError("--log and --no-log exclude each other") }
    }
}
