import HRV
import Testing

/// Input at the desk as evidence of sitting (``StressDetector/isSitting``): a heart-rate rise then
/// is not exercise. Without it the detector is as before (StressDetectorTests, StressValidationTests).
@Suite struct DeskSittingTests {
    /// A strong stress response at the desk: +28 bpm with RMSSD halved, which heart rate alone
    /// cannot tell from a brisk walk.
    static let strongStress = "rest:5m,stress:4m:hr=90:rmssd=15,rest:6m"
    static let seeds: [UInt64] = [1, 2, 3]

    @Test(arguments: seeds)
    func fromHeartRateAloneTheRiseIsActivity(seed: UInt64) throws {
        let run = try StressValidationTests.judge(Self.strongStress, seed: seed)
        #expect(run.episodes.contains { $0.kind == .activity }, "\(run.episodes)")
    }

    @Test(arguments: seeds)
    func typingAtTheDeskTheRiseIsNotActivity(seed: UInt64) throws {
        let run = try StressValidationTests.judge(Self.strongStress, seed: seed) { _ in true }
        #expect(!run.episodes.contains { $0.kind == .activity }, "\(run.episodes)")
        #expect(run.share(of: .activity, in: 0...900) == 0)
        #expect(run.stress.count == 1, "\(run.episodes)")
    }

    /// Exercise, then back at the desk: the activity ends with the first input and recovery
    /// follows (heart rate stays high for minutes after exercise).
    @Test(arguments: seeds)
    func inputEndsAnActivityAndRecoveryFollows(seed: UInt64) throws {
        let run = try StressValidationTests.judge("rest:4m,activity:6m,recovery:10m", seed: seed) { $0 >= 480 }
        let activity = try #require(run.episodes.first { $0.kind == .activity })
        #expect(activity.end < 485, "\(activity)")
        #expect(run.share(of: .activity, in: 485...1200) == 0)
        #expect(run.share(of: .recovery, in: 485...600) > 0.9)
        #expect(run.stress.isEmpty, "\(run.stress)")
    }
}
