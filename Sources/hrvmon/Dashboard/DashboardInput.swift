/// What a key asks of the session; everything else a key does stays in the dashboard.
enum DashboardCommand: Equatable {
    case toggleExercise
    case saveNote(String)
    case quit
    /// Draw every line again, not only the changed ones (Ctrl-L).
    case redrawAll
}

extension DashboardState {
    /// Applies a key: `b` breathing, `n` note, `q` quit, `?` help. While a note is typed, keys
    /// are text; Enter saves it, Escape drops it. Any key closes the help.
    mutating func press(_ key: Key) -> DashboardCommand? {
        if key == .redraw { return .redrawAll }
        switch mode {
        case .help:
            mode = .normal
        case .note(var draft):
            switch key {
            case .enter:
                mode = .normal
                let text = draft.trimmingSpaces
                return text.isEmpty ? nil : .saveNote(text)
            case .escape:
                mode = .normal
                return nil
            case .backspace:
                if !draft.isEmpty { draft.removeLast() }
            case .clearLine:
                draft = ""
            case .character(let character):
                if draft.utf8.count + character.utf8.count <= NoteInbox.limit { draft.append(character) }
            case .redraw:
                break
            }
            mode = .note(draft)
        case .normal:
            guard case .character(let character) = key else { return nil }
            // Once the session is over (the demo waits for q) there is nothing to breathe or note into.
            let running = summary == nil
            switch character.lowercased() {
            case "q": return .quit
            case "?", "h": mode = .help
            case "b" where running: return .toggleExercise
            case "n" where running: mode = .note("")
            default: break
            }
        }
        return nil
    }
}

extension String {
    /// Without leading and trailing white space.
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
