import HRV
import Simulation
import Testing

@Suite struct GuidanceTests {
    /// Runs a scenario through pipeline, detector, coach and one exercise span.
    static func run(_ spec: String, seed: UInt64, cooldown: Double = 1200, exercise: (Double, Double)? = nil)
        throws -> (suggestions: [BreathingCoach.Suggestion], effect: ExerciseEffect?)
    {
        let beats = Simulator(scenario: try Scenario(parsing: spec), seed: seed).run().beats
        var pipeline = HRVPipeline()
        var detector = StressDetector()
        var coach = BreathingCoach(cooldown: cooldown, extraTips: ["My own tip."])
        var effect = exercise.map { ExerciseEffect(start: $0.0, end: $0.1) }
        var suggestions: [BreathingCoach.Suggestion] = []
        for beat in beats {
            pipeline.append(RRInterval(ticks: beat.rrTicks)) { update in
                let assessment = detector.update(update) { _ in }
                if let suggestion = coach.consider(assessment, window: update.rmssdWindow, baseline: detector.baseline, at: update.beat.seconds) {
                    suggestions.append(suggestion)
                }
                effect?.observe(update.beat)
            }
        }
        return (suggestions, effect)
    }

    @Test func oneSuggestionWithItsReasonWhenStressStarts() throws {
        let (suggestions, _) = try Self.run("rest:10m,stress:5m,rest:5m", seed: 4)
        #expect(suggestions.count == 1)
        let suggestion = try #require(suggestions.first)
        #expect(suggestion.time > 600 && suggestion.time < 780)
        // "RMSSD 18 ms, 58 % below your baseline of 44 ms, for 1 min"
        let numbers = suggestion.reason.split { !$0.isNumber }.compactMap { Int($0) }
        #expect(numbers.count == 4)
        #expect((10...25).contains(numbers[0]))  // stress RMSSD ~18 ms
        #expect((40...75).contains(numbers[1]))  // % below
        #expect((35...55).contains(numbers[2]))  // resting RMSSD ~45 ms
        #expect(suggestion.reason.hasPrefix("RMSSD \(numbers[0]) ms, \(numbers[1]) % below your baseline of \(numbers[2]) ms, for"))
        #expect(suggestion.pattern == .resonance())
        #expect(BreathingCoach.builtInTips.contains(suggestion.tip))
    }

    @Test func coolDownLimitsSuggestions() throws {
        let spec = "rest:10m,stress:4m,rest:6m,stress:4m,rest:4m"
        #expect(try Self.run(spec, seed: 1, cooldown: 1200).suggestions.count == 1)
        let frequent = try Self.run(spec, seed: 1, cooldown: 300).suggestions
        #expect(frequent.count == 2)
        #expect(frequent.map(\.tip) == [BreathingCoach.builtInTips[0], BreathingCoach.builtInTips[1]])  // rotating
    }

    @Test func noSuggestionWithoutStress() throws {
        #expect(try Self.run("rest:5m,activity:5m,recovery:5m", seed: 2).suggestions.isEmpty)
    }

    /// Paced breathing after stress: RMSSD far up and heart rate down during the exercise.
    @Test(arguments: [UInt64(1), 2, 3])
    func exerciseEffectIsMeasured(seed: UInt64) throws {
        let effect = try #require(try Self.run("rest:5m,stress:5m,breathing:5m,rest:3m", seed: seed, exercise: (600, 900)).effect)
        let before = try #require(effect.before.rmssd)
        let during = try #require(effect.during.rmssd)
        let after = try #require(effect.after.rmssd)
        #expect(during > 2.5 * before)
        #expect(after > before)
        #expect(try #require(effect.during.meanHR) < (try #require(effect.before.meanHR)) - 8)
        #expect(effect.before.count > 60 && effect.before.count < 100)  // one minute of stress beats
        #expect(effect.isSettled(at: 1080))
    }
}
