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
                let assessment = detector.update(VerdictInput(update)) { _ in }
                if let suggestion = coach.consider(assessment, at: update.beat.seconds) {
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
        // "RMSSD 28 ms, 36 % below your reference of 46 ms; heart rate +8 bpm; breathing 18/min, for 1 min"
        let numbers = suggestion.reason.split { !$0.isNumber }.compactMap { Int($0) }
        #expect(numbers.count == 6, "\(suggestion.reason)")
        #expect((22...36).contains(numbers[0]))  // stress RMSSD ~29 ms
        #expect((20...50).contains(numbers[1]))  // % below
        #expect((38...55).contains(numbers[2]))  // resting RMSSD ~45 ms
        #expect((3...12).contains(numbers[3]))  // bpm above the reference
        #expect((15...21).contains(numbers[4]))  // breaths a minute
        #expect(suggestion.reason.hasPrefix(
            "RMSSD \(numbers[0]) ms, \(numbers[1]) % below your reference of \(numbers[2]) ms; heart rate +\(numbers[3]) bpm; breathing \(numbers[4])/min, for"))
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

    /// Paced breathing after stress: RMSSD up and heart rate down during the exercise (slow
    /// breathing raises RMSSD above rest, Laborde et al. 2022; heart rate returns to rest).
    @Test(arguments: [UInt64(1), 2, 3])
    func exerciseEffectIsMeasured(seed: UInt64) throws {
        let effect = try #require(try Self.run("rest:5m,stress:5m,breathing:5m,rest:3m", seed: seed, exercise: (600, 900)).effect)
        let before = try #require(effect.before.rmssd)
        let during = try #require(effect.during.rmssd)
        let after = try #require(effect.after.rmssd)
        #expect(during > 1.5 * before)
        #expect(after > before)
        #expect(try #require(effect.during.meanHR) < (try #require(effect.before.meanHR)) - 4)
        #expect(effect.before.count > 60 && effect.before.count < 100)  // one minute of stress beats
        #expect(effect.isSettled(at: 1080))
    }
}
