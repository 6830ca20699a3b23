import SelfReport
import Testing

@Suite struct DASS21Tests {
    /// The items' scales as /work/shared/instruments/dass21.md lists them (Lovibond & Lovibond 1995).
    @Test func itemsAreThePublishedTwentyOneInOrder() {
        #expect(DASS21.items.count == 21)
        #expect(DASS21.items.map(\.number) == Array(1...21))
        let scales = DASS21.items.map { String($0.scale.rawValue.prefix(1).uppercased()) }.joined()
        #expect(scales == "SADADSASADSSDSADDSAAD")
        #expect(DASS21.items[0].text == "I found it hard to wind down")
        #expect(DASS21.items[18].text
            == "I was aware of the action of my heart in the absence of physical exertion (e.g. sense of heart rate increase, heart missing a beat)")
        #expect(DASS21.items[20].text == "I felt that life was meaningless")
        #expect(DASS21.ratings.count == 4)
    }

    /// Scored by hand: stress items 1 6 8 11 12 14 18 = 1+1+1+1+1+1+1 = 7 → 14 (normal, its top
    /// edge); depression items 3 5 10 13 16 17 21 = 2+1+2+2+1+0+1 = 9 → 18 (moderate); anxiety 0.
    @Test func handScoredAnswers() throws {
        let result = try DASS21.parse(answers: "1,0,2,0,1,1,0,1,0,2,1,1,2,1,0,1,0,1,0,0,1")
        #expect(result.score(.stress) == 14)
        #expect(result.severity(.stress) == .normal)
        #expect(result.score(.depression) == 18)
        #expect(result.severity(.depression) == .moderate)
        #expect(result.score(.anxiety) == 0)
        #expect(result.severity(.anxiety) == .normal)
        #expect(!result.isSevere)
        let all = try DASS21.parse(answers: Array(repeating: "3", count: 21).joined(separator: " , "))
        #expect(DASS21.Scale.allCases.map { all.score($0) } == [42, 42, 42])
        #expect(DASS21.Scale.allCases.map { all.severity($0) } == [.extremelySevere, .extremelySevere, .extremelySevere])
        #expect(all.isSevere)
    }

    /// Every edge of the published bands, on both sides: normal's top, each band's first value.
    @Test func bandEdges() {
        let edges: [(DASS21.Scale, [(Int, DASS21.Severity)])] = [
            (.depression, [(0, .normal), (9, .normal), (10, .mild), (13, .mild), (14, .moderate), (20, .moderate), (21, .severe), (27, .severe), (28, .extremelySevere), (42, .extremelySevere)]),
            (.anxiety, [(0, .normal), (7, .normal), (8, .mild), (9, .mild), (10, .moderate), (14, .moderate), (15, .severe), (19, .severe), (20, .extremelySevere)]),
            (.stress, [(0, .normal), (14, .normal), (15, .mild), (18, .mild), (19, .moderate), (25, .moderate), (26, .severe), (33, .severe), (34, .extremelySevere)]),
        ]
        for (scale, cases) in edges {
            for (score, severity) in cases { #expect(scale.severity(of: score) == severity, "\(scale) \(score)") }
        }
    }

    /// The doubled scores the questionnaire can give at each band's edges, through the answers.
    @Test func achievableEdgesThroughAnswers() {
        func answers(_ scale: DASS21.Scale, sum: Int) -> DASS21.Result {
            var left = sum
            return DASS21.Result(answers: DASS21.items.map { item in
                guard item.scale == scale else { return 0 }
                let rating = min(3, left)
                left -= rating
                return rating
            })
        }
        let expected: [(DASS21.Scale, Int, DASS21.Severity)] = [
            (.depression, 4, .normal), (.depression, 5, .mild), (.depression, 6, .mild), (.depression, 7, .moderate),
            (.depression, 10, .moderate), (.depression, 11, .severe), (.depression, 13, .severe), (.depression, 14, .extremelySevere),
            (.anxiety, 3, .normal), (.anxiety, 4, .mild), (.anxiety, 5, .moderate), (.anxiety, 7, .moderate), (.anxiety, 8, .severe),
            (.anxiety, 9, .severe), (.anxiety, 10, .extremelySevere),
            (.stress, 7, .normal), (.stress, 8, .mild), (.stress, 9, .mild), (.stress, 10, .moderate), (.stress, 12, .moderate),
            (.stress, 13, .severe), (.stress, 16, .severe), (.stress, 17, .extremelySevere),
        ]
        for (scale, sum, severity) in expected {
            let result = answers(scale, sum: sum)
            #expect(result.score(scale) == 2 * sum)
            #expect(result.severity(scale) == severity, "\(scale) sum \(sum)")
            #expect(DASS21.Scale.allCases.filter { $0 != scale }.allSatisfy { result.score($0) == 0 })
        }
    }

    @Test func badAnswersSayWhatIsWrong() {
        #expect(throws: DASS21.AnswersProblem(description: "20 answers given; the DASS-21 has 21, one per item in order")) {
            try DASS21.parse(answers: Array(repeating: "0", count: 20).joined(separator: ","))
        }
        #expect(throws: DASS21.AnswersProblem(description: "answer 3 is '4', not a rating 0, 1, 2 or 3")) {
            try DASS21.parse(answers: "0,0,4" + String(repeating: ",0", count: 18))
        }
        #expect(throws: DASS21.AnswersProblem(description: "answer 2 is '', not a rating 0, 1, 2 or 3")) {
            try DASS21.parse(answers: "0,," + Array(repeating: "0", count: 19).joined(separator: ","))
        }
        #expect(throws: DASS21.AnswersProblem(description: "answer 1 is 'a', not a rating 0, 1, 2 or 3")) { try DASS21.parse(answers: "a") }
    }
}
