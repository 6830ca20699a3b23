import ArgumentParser
import Platform
import Study

/// `hrvmon study`: a research study in PostgreSQL (docs/guide/study.md).
struct StudyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "study",
        abstract: "Take part in a research study, or run one: participants send their sessions to the study's PostgreSQL.",
        discussion: """
            Researchers: create, invite, status, pull, erase. Participants: join, sync, show, categories, leave. Connections are TLS only, the server's \
            certificate verified against the study's CA (sslmode=verify-full), SCRAM-SHA-256 with channel binding. \
            Passwords are never taken on the command line: the researcher's comes from PGPASSWORD or ~/.pgpass, a \
            participant's is in the invite. See docs/guide/study.md.
            """,
        subcommands: [
            StudyCreate.self, StudyInvite.self, StudyStatus.self, StudyPull.self, StudyErase.self, StudyJoin.self, StudySyncCommand.self,
            StudyShowCommand.self, StudyCategories.self, StudyLeave.self,
        ])
}

/// The researcher's `--database URI`.
struct DatabaseOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The study's database: a libpq URI or conninfo, e.g. postgresql://researcher@host/study?sslrootcert=ca.pem (password in PGPASSWORD or ~/.pgpass).",
            valueName: "URI"))
    var database: String
}

/// `body`'s value; a `StudyFailure` said on stderr and turned into the exit status (2 for bad
/// input, 1 for a failure of the server or a file).
func studyOutcome<Value>(_ body: () throws(StudyFailure) -> Value) throws(ExitCode) -> Value {
    do {
        return try body()
    } catch {
        FileStream.printError("hrvmon: \(error)")
        throw ExitCode(error.isBadInput ? 2 : 1)
    }
}

/// `--categories rr,notes`: each one of the categories hrvmon knows.
func parseCategories(_ list: String) throws -> [String] {
    let categories = list.split(separator: ",").map { String($0.trimming(.spacesAndNewlines)) }
    let unknown = categories.filter { !StudyResearcher.categories.contains($0) }
    guard unknown.isEmpty, !categories.isEmpty else {
        throw ValidationError("--categories: \(unknown.isEmpty ? "empty" : "unknown " + unknown.joined(separator: ", ")); choose from \(StudyResearcher.categories.joined(separator: ","))")
    }
    return categories
}
