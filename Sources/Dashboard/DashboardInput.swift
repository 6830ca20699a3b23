import LivePipeline
import Platform

/// What a key asks of the session; everything else a key does stays in the dashboard.
public enum DashboardCommand: Equatable {
    case toggleExercise
    case saveNote(String)
    case quit
    /// Draw every line again, not only the changed ones (Ctrl-L).
    case redrawAll
}

extension DashboardState {
    /// Applies a key: `b` breathing, `n` note, `q` quit, `?` help. While a note is typed, keys
    /// are text; Enter saves it, Escape drops it. Any key closes the help.
    public mutating func press(_ key: Key) -> DashboardCommand? {
        switch (mode, key) {
        case (_, .redraw):
            return .redrawAll
        case (.help, _):
            mode = .normal
        case (.note(let draft), .enter):
            mode = .normal
            // Trimmed as `hrvmon note` trims its words.
            let text = draft.trimming(.spacesAndNewlines)
            return text.isEmpty ? nil : .saveNote(text)
        case (.note, .escape):
            mode = .normal
        case (.note(var draft), .backspace):
            if !draft.isEmpty { draft.removeLast() }
            mode = .note(draft)
        case (.note, .clearLine):
            mode = .note("")
        case (.note(var draft), .character(let character)):
            if draft.utf8.count + character.utf8.count <= SessionEvent.noteLimit { draft.append(character) }
            mode = .note(draft)
        case (.normal, .character(let character)):
            // Once the session is over (the demo waits for q) there is nothing to breathe or note into.
            let running = summary == nil
            switch character.lowercased() {
            case "q": return .quit
            case "?", "h": mode = .help
            case "b" where running: return .toggleExercise
            case "n" where running: mode = .note("")
            default: break
            }
        case (.normal, _):
            break
        }
        return nil
    }
}
