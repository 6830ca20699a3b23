import LivePipeline
import Platform
import SelfReport

/// What a key asks of the session; everything else a key does stays in the dashboard.
public enum DashboardCommand: Equatable {
    case toggleExercise
    case saveNote(String)
    case saveCheckIn(CheckIn)
    /// The answer to "Was that stress?" about the session's stress episode `episode` (from 1).
    case answerEpisode(Int, EpisodeAnswer)
    case quit
    /// Draw every line again, not only the changed ones (Ctrl-L).
    case redrawAll
}

extension DashboardState {
    /// Applies a key: `b` breathing, `n` note, `c` check-in, `s` "was that stress?" (after a
    /// stress episode), `q` quit, `?` help. While a note is typed, keys are text; Enter saves it,
    /// Escape drops it. The check-in's keys are `CheckInForm`'s; the question takes y, n or u.
    /// Any key closes the help.
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
        case (.checkIn, .escape), (.question, .escape):
            mode = .normal
        case (.checkIn(var form), _):
            let checkIn = form.press(key, vocabulary: configuration.vocabulary)
            mode = checkIn == nil ? .checkIn(form) : .normal
            return checkIn.map(DashboardCommand.saveCheckIn)
        case (.question(let episode), .character(let character)):
            let answers: [String: EpisodeAnswer] = ["y": .yes, "n": .no, "u": .unsure]
            guard let answer = answers[character.lowercased()] else { return nil }
            mode = .normal
            unanswered = nil
            return .answerEpisode(episode, answer)
        case (.question, _):
            break
        case (.note, .escape):
            mode = .normal
        case (.note(var draft), .backspace):
            if !draft.isEmpty { draft.removeLast() }
            mode = .note(draft)
        case (.note, .clearLine):
            mode = .note("")
        case (.note, .tab):
            break
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
            case "c" where running: mode = .checkIn(CheckInForm())
            case "s": if let unanswered { mode = .question(unanswered) }
            default: break
            }
        case (.normal, _):
            break
        }
        return nil
    }
}
