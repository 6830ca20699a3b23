import ArgumentParser
import Platform

/// Asks before something is deleted for good: on a terminal, `question` with [y/N]; off one,
/// refuses with exit status 2 naming `what`, since a script must say --yes. True to go ahead;
/// false when the user kept it (and "kept" is said).
func confirmDeletion(of what: String, asking question: String) throws -> Bool {
    guard Terminal.isTerminal(.input) else {
        throw badInput(ValidationError("refusing to delete \(what) without --yes when not asked on a terminal"))
    }
    print("\(question) [y/N] ", terminator: "")
    guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
        print("kept")
        return false
    }
    return true
}
