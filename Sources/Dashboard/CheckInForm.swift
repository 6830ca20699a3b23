import SelfReport

/// The check-in typed on the dashboard (`c`): the mood as a digit, then what, who and where as
/// short answers; Tab completes an answer to the most used earlier one, Enter moves on (an empty
/// answer skips the question), Escape drops the check-in. Pure.
public struct CheckInForm: Equatable {
    public private(set) var mood: Mood?
    public private(set) var answers: [String?] = []
    /// The answer being typed.
    public private(set) var draft = ""

    public init() {}

    /// The question being asked: nil while the mood is.
    public var question: CheckIn.Question? { mood == nil ? nil : CheckIn.Question.allCases[answers.count] }

    public var prompt: String { question?.prompt ?? Mood.question + " " + Mood.scale }

    /// What a key does to the form: the check-in once the last question is answered.
    mutating func press(_ key: Key, vocabulary: CheckInVocabulary) -> CheckIn? {
        guard mood != nil else {
            if case .character(let character) = key, let mood = Mood(answer: String(character)) { self.mood = mood }
            return nil
        }
        switch key {
        case .character(let character):
            if draft.count < Tag.limit { draft.append(character) }
        case .backspace:
            if !draft.isEmpty { draft.removeLast() }
        case .clearLine:
            draft = ""
        case .tab:
            if let question, let completion = vocabulary[question].completion(of: draft) { draft = completion }
        case .enter:
            let tag = Tag.normalised(draft)
            answers.append(tag.isEmpty || Tag.problem(tag) != nil ? nil : tag)
            draft = ""
            guard answers.count == CheckIn.Question.allCases.count, let mood else { return nil }
            return CheckIn(mood: mood, doing: answers[0], company: answers[1], place: answers[2])
        case .escape, .redraw:
            break
        }
        return nil
    }
}
