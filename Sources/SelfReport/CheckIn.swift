/// A check-in: the four questions of the mood-and-triggers form (how are you feeling, what are
/// you doing, who are you with, where are you), answered at one moment. The mood is required;
/// the other three are tags, normalised so that "Library " and "library" are one place.
public struct CheckIn: Equatable, Sendable {
    public var mood: Mood
    /// What you are doing (`--doing`); nil: not answered.
    public var doing: String?
    /// Who you are with (`--with`).
    public var company: String?
    /// Where you are (`--where`).
    public var place: String?

    /// The tags must already be normalised (`Tag.normalised`), as the reader and the commands make them.
    public init(mood: Mood, doing: String?, company: String?, place: String?) {
        self.mood = mood
        self.doing = doing
        self.company = company
        self.place = place
    }

    /// The answers in words, for lines and logs: `mood 2 (low) · exam · alone · library`.
    public var summary: String {
        (["mood \(mood.rawValue) (\(mood.words))"] + [doing, company, place].compactMap { $0 }).joined(separator: " · ")
    }

    /// The three tag questions, in the form's order.
    public enum Question: String, CaseIterable, Sendable {
        case doing, company = "with", place = "where"

        /// As the form asks it.
        public var prompt: String {
            switch self {
            case .doing: "What are you doing?"
            case .company: "Who are you with?"
            case .place: "Where are you?"
            }
        }

        public func answer(in checkIn: CheckIn) -> String? {
            switch self {
            case .doing: checkIn.doing
            case .company: checkIn.company
            case .place: checkIn.place
            }
        }
    }
}

/// How you are feeling, 1 (worst) to 5 (best), each with its words.
public enum Mood: Int, CaseIterable, Sendable {
    case awful = 1, low, okay, good, great

    public static let question = "How are you feeling?"

    public var words: String {
        switch self {
        case .awful: "awful"
        case .low: "low"
        case .okay: "okay"
        case .good: "good"
        case .great: "great"
        }
    }

    /// The scale in one line: `1 awful, 2 low, 3 okay, 4 good, 5 great`.
    public static var scale: String { allCases.map { "\($0.rawValue) \($0.words)" }.joined(separator: ", ") }

    /// A number 1–5 or the words of one; nil for anything else.
    public init?(answer: String) {
        let text = Tag.normalised(answer)
        guard let mood = Int(text).flatMap(Mood.init(rawValue:)) ?? Mood.allCases.first(where: { $0.words == text }) else { return nil }
        self = mood
    }
}

/// A check-in's short answers as tags: trimmed, runs of white space made one space, lower case,
/// so the same answer is the same tag however it was typed.
public enum Tag {
    /// Longest tag, in characters: a tag is a word or two, not a note.
    public static let limit = 40

    public static func normalised(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }

    /// Why `text` cannot be a tag; nil when it can (an empty answer is no answer, and allowed).
    public static func problem(_ text: String) -> String? {
        let tag = normalised(text)
        if tag.count > limit { return "is longer than \(limit) characters (a tag is a word or two; `hrvmon note` takes longer text)" }
        if tag.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "contains a control character" }
        return nil
    }
}

/// Earlier answers to a question, most used first, offered for completion so the tags stay
/// consistent: a number picks one, a prefix (Tab on the dashboard) completes to the most used.
public struct TagVocabulary: Equatable, Sendable {
    /// Most used first; ties in the order first seen.
    public private(set) var tags: [String] = []
    private var counts: [String: Int] = [:]

    public init(_ answers: some Sequence<String> = []) {
        for answer in answers { add(answer) }
    }

    public mutating func add(_ answer: String) {
        let tag = Tag.normalised(answer)
        guard !tag.isEmpty else { return }
        if counts[tag] == nil { tags.append(tag) }
        counts[tag, default: 0] += 1
        // Stable: equal counts keep their first-seen order.
        tags = tags.enumerated().sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }.map(\.element)
    }

    /// The most used earlier answer that starts with `typed` (normalised); nil when none does.
    public func completion(of typed: String) -> String? {
        let prefix = Tag.normalised(typed)
        guard !prefix.isEmpty else { return nil }
        return tags.first { $0.hasPrefix(prefix) }
    }

    /// What an answer typed at the prompt means: the earlier answer numbered `typed` (from 1, as
    /// offered), else `typed` itself as a tag; nil for no answer.
    public func resolve(_ typed: String, offered: Int) -> String? {
        let tag = Tag.normalised(typed)
        if let number = Int(tag), (1...offered).contains(number), number <= tags.count { return tags[number - 1] }
        return tag.isEmpty ? nil : tag
    }
}

/// The earlier answers to each question, gathered from earlier check-ins.
public struct CheckInVocabulary: Equatable, Sendable {
    public var doing = TagVocabulary()
    public var company = TagVocabulary()
    public var place = TagVocabulary()

    public init(_ checkIns: some Sequence<CheckIn> = [CheckIn]()) {
        for checkIn in checkIns { add(checkIn) }
    }

    public mutating func add(_ checkIn: CheckIn) {
        if let doing = checkIn.doing { self.doing.add(doing) }
        if let company = checkIn.company { self.company.add(company) }
        if let place = checkIn.place { self.place.add(place) }
    }

    public subscript(question: CheckIn.Question) -> TagVocabulary {
        switch question {
        case .doing: doing
        case .company: company
        case .place: place
        }
    }
}
