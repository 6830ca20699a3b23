import SelfReport
import Testing

@Suite struct CheckInTests {
    @Test func tagsAreNormalised() {
        #expect(Tag.normalised("  The   Library\t") == "the library")
        #expect(Tag.normalised("") == "")
        #expect(Tag.problem(String(repeating: "a", count: 41)) != nil)
        #expect(Tag.problem("exam\u{7}") == "contains a control character")
        #expect(Tag.problem(" exam ") == nil)
    }

    @Test func moodTakesNumbersOrWords() {
        #expect(Mood(answer: "2") == .low)
        #expect(Mood(answer: " Great ") == .great)
        #expect(Mood(answer: "0") == nil)
        #expect(Mood(answer: "6") == nil)
        #expect(Mood(answer: "meh") == nil)
        #expect(Mood.scale == "1 awful, 2 low, 3 okay, 4 good, 5 great")
    }

    @Test func vocabularyOffersTheMostUsedFirstAndCompletes() {
        let vocabulary = TagVocabulary(["Library", "home", "library ", "lab", "home", "library"])
        #expect(vocabulary.tags == ["library", "home", "lab"])
        #expect(vocabulary.completion(of: "l") == "library")
        #expect(vocabulary.completion(of: "LI") == "library")
        #expect(vocabulary.completion(of: "la") == "lab")
        #expect(vocabulary.completion(of: "lab") == "lab")
        #expect(vocabulary.completion(of: "x") == nil)
        #expect(vocabulary.completion(of: " ") == nil)
        #expect(vocabulary.resolve("2", offered: 3) == "home")
        #expect(vocabulary.resolve("4", offered: 3) == "4")
        #expect(vocabulary.resolve(" Train  Station ", offered: 3) == "train station")
        #expect(vocabulary.resolve("  ", offered: 3) == nil)
    }

    @Test func checkInVocabularyKeepsEachQuestionApart() {
        let vocabulary = CheckInVocabulary([
            CheckIn(mood: .low, doing: "exam", company: "alone", place: "library"),
            CheckIn(mood: .good, doing: nil, company: "friends", place: "library"),
        ])
        #expect(vocabulary[.doing].tags == ["exam"])
        #expect(vocabulary[.company].tags == ["alone", "friends"])
        #expect(vocabulary[.place].tags == ["library"])
    }

    @Test func episodeNames() {
        #expect(EpisodeName("20261127-101500:2") == EpisodeName(session: "20261127-101500", number: 2))
        #expect(EpisodeName("last:1")?.description == "last:1")
        #expect(EpisodeName("abc") == nil)
        #expect(EpisodeName("abc:0") == nil)
        #expect(EpisodeName(":1") == nil)
        #expect(EpisodeName("abc:x") == nil)
    }
}
