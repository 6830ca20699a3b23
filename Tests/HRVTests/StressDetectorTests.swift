import HRV
import Simulation
import Testing

/// The detector's basic contract on simulated scenarios with ground truth (the look-alikes and
/// the sensitivity targets are in StressValidationTests, which runs the same way).
@Suite struct StressDetectorTests {
    static func run(_ spec: String, seed: UInt64) throws -> StressValidationTests.Judged {
        try StressValidationTests.judge(spec, seed: seed)
    }

    static let seeds: [UInt64] = [1, 2, 3, 4, 5]

    @Test(arguments: seeds)
    func stressAfterRestIsFoundOnTime(seed: UInt64) throws {
        let run = try Self.run("rest:10m,stress:5m,rest:5m", seed: seed)
        #expect(run.stress.count == 1, "\(run.stress)")
        let episode = try #require(run.stress.first)
        #expect(abs(episode.start - 600) <= 90, "onset \(episode.start)")
        #expect(abs(episode.end - 900) <= 120, "end \(episode.end)")
        #expect((episode.peakLevel ?? 0) > 50)
        #expect(run.stressSeconds(in: 0...600) <= 30)
        #expect(run.stressSeconds(in: 1020...1200) <= 30)
    }

    @Test(arguments: seeds)
    func pacedBreathingIsNotStress(seed: UInt64) throws {
        let run = try Self.run("rest:5m,breathing:5m,rest:5m", seed: seed)
        #expect(run.stress.isEmpty, "\(run.stress)")
    }

    @Test(arguments: seeds)
    func exerciseIsActivityNotStress(seed: UInt64) throws {
        let run = try Self.run("rest:4m,activity:10m,recovery:5m,rest:5m", seed: seed)
        #expect(run.share(of: .activity, in: 240...840) >= 0.8)
        #expect(run.stress.isEmpty, "\(run.stress)")
        let activity = run.episodes.filter { $0.kind == .activity }
        #expect(activity.count == 1)
        #expect(abs((activity.first?.start ?? 0) - 240) <= 60)
    }

    @Test(arguments: seeds)
    func restWithEctopicBeatsHasNoEpisode(seed: UInt64) throws {
        let run = try Self.run("rest:20m,ectopic=2/min", seed: seed)
        #expect((run.truth.artifactBeatIndices[.ectopic] ?? []).count > 20)
        #expect(run.stress.isEmpty, "\(run.stress)")
    }

    @Test func calibrationThenJudgement() throws {
        let run = try Self.run("rest:5m", seed: 1)
        #expect(run.states.filter { $0.time < 170 }.allSatisfy { $0.state == .unknown })
        #expect(run.share(of: .rest, in: 200...300) > 0.8)
    }
}
