import Dashboard
import HRV
import LivePipeline
import SelfReport
import TestSupport
import Testing

/// The dashboard's check-in (`c`) and its "Was that stress?" (`s`), as keys and on the screen.
@Suite struct DashboardCheckInTests {
    static func replay(until seconds: Double, vocabulary: CheckInVocabulary = CheckInVocabulary()) throws -> DemoReplay {
        var configuration = DemoReplay.configuration
        configuration.vocabulary = vocabulary
        let replay = try DemoReplay(configuration: configuration)
        replay.play(until: seconds)
        return replay
    }

    @Test func checkInIsAskedQuestionByQuestion() throws {
        let vocabulary = CheckInVocabulary([CheckIn(mood: .good, doing: "exam", company: "friends", place: "library")])
        var state = try Self.replay(until: 100, vocabulary: vocabulary).state
        #expect(state.render(size: DashboardRenderTests.wide, colors: false).last?.contains("c check in") == true)
        #expect(state.press(.character("c")) == nil)
        #expect(state.render(size: DashboardRenderTests.wide, colors: false).last?
            .hasPrefix(" check-in: How are you feeling? 1 awful, 2 low, 3 okay, 4 good, 5 great") == true)
        #expect(state.press(.character("x")) == nil, "not a mood: still asked")
        #expect(state.press(.character("2")) == nil)
        for character in "ex" { _ = state.press(.character(character)) }
        #expect(state.press(.tab) == nil)
        #expect(state.render(size: DashboardRenderTests.wide, colors: false).last?.hasPrefix(" check-in: What are you doing? exam█") == true)
        #expect(state.press(.enter) == nil)
        for character in " Alone  " { _ = state.press(.character(character)) }
        #expect(state.press(.enter) == nil)
        #expect(state.press(.character("q")) == nil, "q is text in a check-in")
        _ = state.press(.backspace)
        #expect(state.press(.enter) == .saveCheckIn(CheckIn(mood: .low, doing: "exam", company: "alone", place: nil)), "an empty answer skips")
        #expect(state.mode == .normal)
        _ = state.press(.character("c"))
        _ = state.press(.character("5"))
        #expect(state.press(.escape) == nil)
        #expect(state.mode == .normal, "Escape drops the check-in")
    }

    /// After the demo's stress episode, `s` asks about it; the answer is the session's `label`
    /// event, and then nothing is left to ask.
    @Test func wasThatStressAfterAnEpisode() throws {
        let early = try Self.replay(until: 100)
        var before = early.state
        #expect(before.unanswered == nil)
        #expect(before.press(.character("s")) == nil)
        #expect(before.mode == .normal, "no episode yet, no question")

        let replay = try Self.replay(until: 10_000)
        var state = replay.state
        let episode = try #require(state.unanswered)
        #expect(episode == 1)
        #expect(state.render(size: DashboardRenderTests.wide, colors: false).last?.contains("s was that stress?") == true)
        #expect(state.press(.character("s")) == nil)
        #expect(state.render(size: DashboardRenderTests.wide, colors: false).last?.hasPrefix(" Was that stress?  y yes · n no · u not sure") == true)
        #expect(state.press(.character("z")) == nil)
        #expect(state.press(.character("N")) == .answerEpisode(1, .no))
        #expect(state.unanswered == nil)
        #expect(state.mode == .normal)

        // The session records the answer; the state that saw it asks no more.
        replay.run.label(episode: 1, .unsure, via: "dashboard", at: DemoReplay.start + 10_000)
        #expect(replay.state.unanswered == nil)
        replay.run.label(episode: 2, .yes, via: "dashboard", at: DemoReplay.start + 10_000)
        #expect(replay.state.log.last?.text == "stress episode 1 labelled: Not sure", "no second episode: nothing labelled")
    }
}
