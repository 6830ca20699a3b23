import HRV
import Simulation
import Testing

/// Stress and activity detection on simulated scenarios with ground truth.
@Suite struct StressDetectorTests {
    struct Run {
        var states: [(time: Double, state: StressState)] = []
        var episodes: [StressEpisode] = []

        /// Seconds of stress episodes (as reported, start dated back) inside `start...end`.
        func flaggedStress(from start: Double, to end: Double) -> Double {
            stressEpisodes.reduce(0) { $0 + max(0, min($1.end, end) - max($1.start, start)) }
        }

        func share(of state: StressState, from start: Double, to end: Double) -> Double {
            let inSpan = states.filter { $0.time > start && $0.time <= end }
            return Double(inSpan.filter { $0.state == state }.count) / Double(max(inSpan.count, 1))
        }

        var stressEpisodes: [StressEpisode] { episodes.filter { $0.kind == .stress } }
    }

    static func run(_ spec: String, seed: UInt64) throws -> (Run, GroundTruth) {
        let (beats, truth) = Simulator(scenario: try Scenario(parsing: spec), seed: seed).run()
        var pipeline = HRVPipeline()
        var detector = StressDetector()
        var run = Run()
        let observe = { (update: HRVUpdate) in
            let assessment = detector.update(update) { run.episodes.append($0) }
            run.states.append((update.beat.seconds, assessment.state))
        }
        for beat in beats { pipeline.append(RRInterval(ticks: beat.rrTicks), emit: observe) }
        pipeline.finish(emit: observe)
        detector.finish { run.episodes.append($0) }
        return (run, truth)
    }

    static let seeds: [UInt64] = [1, 2, 3, 4, 5]

    @Test(arguments: seeds)
    func stressAfterRestIsFoundOnTime(seed: UInt64) throws {
        let (run, _) = try Self.run("rest:10m,stress:5m,rest:5m", seed: seed)
        let episodes = run.stressEpisodes
        #expect(episodes.count == 1, "\(episodes)")
        let episode = try #require(episodes.first)
        #expect(abs(episode.start - 600) <= 90, "onset \(episode.start)")
        #expect(abs(episode.end - 900) <= 120, "end \(episode.end)")
        #expect((episode.peakLevel ?? 0) > 50)
        #expect(run.flaggedStress(from: 0, to: 600) <= 30)
        #expect(run.flaggedStress(from: 1020, to: 1200) <= 30)
    }

    @Test(arguments: seeds)
    func pacedBreathingIsNotStress(seed: UInt64) throws {
        let (run, _) = try Self.run("rest:5m,breathing:5m,rest:5m", seed: seed)
        #expect(run.flaggedStress(from: 0, to: 900) <= 30)
        #expect(run.stressEpisodes.isEmpty)
    }

    @Test(arguments: seeds)
    func exerciseIsActivityNotStress(seed: UInt64) throws {
        let (run, _) = try Self.run("rest:4m,activity:10m,recovery:5m,rest:5m", seed: seed)
        #expect(run.share(of: .activity, from: 240, to: 840) >= 0.8)
        #expect(run.flaggedStress(from: 0, to: 840) <= 30)
        #expect(run.stressEpisodes.isEmpty, "\(run.stressEpisodes)")
        let activity = run.episodes.filter { $0.kind == .activity }
        #expect(activity.count == 1)
        #expect(abs((activity.first?.start ?? 0) - 240) <= 60)
    }

    @Test(arguments: seeds)
    func restWithEctopicBeatsHasNoEpisode(seed: UInt64) throws {
        let (run, truth) = try Self.run("rest:20m,ectopic=2/min", seed: seed)
        #expect((truth.artifactBeatIndices[.ectopic] ?? []).count > 20)
        #expect(run.stressEpisodes.isEmpty, "\(run.stressEpisodes)")
        #expect(run.flaggedStress(from: 0, to: 1200) <= 30)
    }

    @Test func calibrationThenJudgement() throws {
        let (run, _) = try Self.run("rest:5m", seed: 1)
        #expect(run.states.filter { $0.time < 170 }.allSatisfy { $0.state == .unknown })
        #expect(run.share(of: .rest, from: 200, to: 300) > 0.8)
    }
}
