import HeartRateProtocol
import LiveSession
import Simulation
import TestSupport
import Testing

@Suite struct DemoTimelineTests {
    /// About one notification a second, as a strap sends them, carrying every simulated RR once.
    @Test func notificationsAsAStrapSendsThem() throws {
        let (beats, _) = Simulator(scenario: .demo, seed: 1).run()
        let notifications = SimulatedStrap.notifications(for: beats)
        #expect(abs(notifications.count - 600) <= 2)
        let parsed = try notifications.map { try HeartRateMeasurement(parsing: $0.bytes) }
        #expect(parsed.flatMap(\.rrIntervals) == beats.map(\.rrTicks))
        let counts = parsed.map(\.rrIntervals.count)
        #expect(counts.allSatisfy { $0 <= 3 })
        #expect(Double(counts.filter { (1...2).contains($0) }.count) >= 0.9 * Double(counts.count), "mostly 1–2 RR each")
        #expect(parsed.allSatisfy { $0.sensorContact == .detected && (50...100).contains($0.heartRate) })
        #expect(zip(notifications, notifications.dropFirst()).allSatisfy { $1.seconds - $0.seconds == 1 })
    }

    @Test func segmentsExerciseAndEnd() {
        let steps = DemoTimeline(scenario: .demo, seed: 1).steps
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.seconds <= $1.seconds })
        let marks = steps.compactMap { step -> String? in
            switch step.action {
            case .segment(let segment): "\(segment.kind.rawValue)@\(Int(step.seconds))"
            case .startExercise: "start@\(Int(step.seconds))"
            case .stopExercise: "stop@\(Int(step.seconds))"
            case .end: "end@\(Int(step.seconds))"
            case .notification, .acceleration, .ecg: nil
            }
        }
        #expect(marks == ["rest@0", "stress@180", "breathing@360", "start@360", "stop@480", "recovery@480", "end@600"])
        let cut = DemoTimeline(scenario: .demo, seed: 1, duration: 100).steps
        #expect(cut.last == DemoTimeline.Step(seconds: 100, action: .end))
        #expect(cut.dropLast().allSatisfy { $0.seconds <= 100 })
    }

    /// The bundled scenario has what the demo shows: a few ectopic beats, and a stress prompt
    /// within the stress segment — under 30 s of real time at the default ×10.
    @Test func bundledScenarioPromptsInTheStressSegment() throws {
        let (_, truth) = Simulator(scenario: .demo, seed: 1).run()
        #expect((1...5).contains(truth.artifactBeatIndices[.ectopic]?.count ?? 0))
        let replay = try DemoReplay()
        replay.play(until: 10_000)
        let first = try #require(replay.suggestions.first)
        #expect(first.seconds > 180 && first.seconds < 300)
        #expect(first.seconds / DemoPlayback.defaultSpeed < 30)
        #expect(replay.suggestions.count == 1)
    }
}
