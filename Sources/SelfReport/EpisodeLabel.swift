/// The wearer's answer to "Was that stress?" about a stress episode the detector flagged.
public enum EpisodeAnswer: String, CaseIterable, Sendable {
    case yes, no, unsure

    /// As the notification's buttons and the dashboard say it.
    public var words: String {
        switch self {
        case .yes: "Yes"
        case .no: "No"
        case .unsure: "Not sure"
        }
    }

    public static let question = "Was that stress?"
}

/// An answer about one stress episode of a session, as its `label` line records it. Episodes
/// are numbered from 1 in the order their lines appear in the session file; `start` (seconds
/// into the session) ties the answer to the episode even when read by itself.
public struct EpisodeLabel: Equatable, Sendable {
    /// From 1, the session's n-th stress episode.
    public var episode: Int
    /// Seconds into the session (the episode's `start_s`).
    public var start: Double
    public var answer: EpisodeAnswer
    /// Where it was answered: `notification`, `dashboard` or `command`.
    public var via: String

    public init(episode: Int, start: Double, answer: EpisodeAnswer, via: String) {
        self.episode = episode
        self.start = start
        self.answer = answer
        self.via = via
    }
}

/// An episode named on the command line: `SESSION:N`, the session's id as `hrvmon sessions`
/// prints it (or the word `last`) and the episode's number in it, from 1.
public struct EpisodeName: Equatable, Sendable {
    public var session: String
    public var number: Int

    public init(session: String, number: Int) {
        self.session = session
        self.number = number
    }

    /// Nil when `text` is not `SESSION:N` with N a whole number from 1.
    public init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let number = Int(text[text.index(after: colon)...]), number >= 1 else { return nil }
        let session = String(text[..<colon])
        guard !session.isEmpty else { return nil }
        self.init(session: session, number: number)
    }

    public var description: String { "\(session):\(number)" }
}
