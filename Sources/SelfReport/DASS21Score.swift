extension DASS21 {
    public enum Scale: String, CaseIterable, Sendable {
        case depression, anxiety, stress

        public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

        /// The lowest doubled score of mild, moderate, severe and extremely severe (the published bands).
        var bandStarts: [Int] {
            switch self {
            case .depression: [10, 14, 21, 28]
            case .anxiety: [8, 10, 15, 20]
            case .stress: [15, 19, 26, 34]
            }
        }

        /// The published band of a doubled score.
        public func severity(of score: Int) -> Severity {
            Severity.allCases[bandStarts.lastIndex { score >= $0 }.map { $0 + 1 } ?? 0]
        }
    }

    public enum Severity: String, CaseIterable, Sendable {
        case normal, mild, moderate, severe
        case extremelySevere = "extremely severe"

        public var isSevere: Bool { self == .severe || self == .extremelySevere }
    }

    /// The scores of one completed questionnaire: each scale's seven ratings summed and doubled
    /// (so they compare with the 42-item DASS), 0–42.
    public struct Result: Equatable, Sendable {
        /// The 21 ratings, 0–3, in item order.
        public let answers: [Int]

        /// `answers` must be 21 ratings 0–3 (`parse` checks typed ones).
        public init(answers: [Int]) {
            precondition(answers.count == DASS21.items.count && answers.allSatisfy(DASS21.ratings.indices.contains))
            self.answers = answers
        }

        public func score(_ scale: Scale) -> Int {
            2 * zip(DASS21.items, answers).filter { $0.0.scale == scale }.map(\.1).reduce(0, +)
        }

        public func severity(_ scale: Scale) -> Severity { scale.severity(of: score(scale)) }

        public var isSevere: Bool { Scale.allCases.contains { severity($0).isSevere } }
    }

    /// What is wrong with answers given as text (`--answers 0,1,…`).
    public struct AnswersProblem: Error, Equatable, CustomStringConvertible {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// `0,1,2,…`: exactly 21 ratings 0–3, separated by commas (spaces around them allowed).
    public static func parse(answers text: String) throws(AnswersProblem) -> Result {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false).map { Tag.normalised(String($0)) }
        var answers: [Int] = []
        for (index, field) in fields.enumerated() {
            guard let rating = Int(field), ratings.indices.contains(rating) else {
                throw AnswersProblem(description: "answer \(index + 1) is '\(field)', not a rating 0, 1, 2 or 3")
            }
            answers.append(rating)
        }
        guard answers.count == items.count else {
            throw AnswersProblem(description: "\(answers.count) answers given; the DASS-21 has \(items.count), one per item in order")
        }
        return Result(answers: answers)
    }
}
