import ArgumentParser
import LiveSession
import Platform

struct Note: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Add a timestamped note (mood, trigger, what you are doing) to the running session.",
        discussion: "The running `hrvmon monitor` (or `demo`) writes it into its session file; `sessions` and reports show it.")

    @Argument(help: "The note; several words are joined with spaces.")
    var words: [String]

    func validate() throws {
        let text = words.joined(separator: " ").trimming(.spacesAndNewlines)
        guard !text.isEmpty else { throw ValidationError("the note is empty") }
        guard text.utf8.count <= NoteInbox.limit else { throw ValidationError("the note is longer than \(NoteInbox.limit) bytes") }
    }

    func run() throws {
        let text = words.joined(separator: " ").trimming(.spacesAndNewlines)
        switch NoteInbox.send(Array(text.utf8)) {
        case nil:
            print("noted")
        case .noSuchFile?, .connectionRefused?:
            FileStream.printError("hrvmon: no session is running (nothing listens on \(NoteInbox.path)); start `hrvmon monitor` first")
            throw ExitCode(1)
        case let error?:
            FileStream.printError("hrvmon: cannot reach the running session at \(NoteInbox.path): \(error)")
            throw ExitCode(1)
        }
    }
}
