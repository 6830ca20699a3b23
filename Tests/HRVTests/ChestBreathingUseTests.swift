import Foundation
import HRV
import Simulation
import Testing

/// What reads breathing takes the chest's while the accelerometer has it, and the RR spectrum's
/// otherwise: the detector's breathing criterion (slow breathing is not stress), the coherence
/// score's peak and the pacer's feedback.
@Suite struct ChestBreathingUseTests {
    static func still(breathing rate: Double?) -> MotionSecond {
        MotionSecond(
            level: .still, intensity: 6, posture: .upright,
            breathing: rate.map { ChestBreathing(rate: $0, phase: .inhaling, breathBegan: 1, quality: 0.9) })
    }

    /// The simulated RR of `spec` through the pipeline and a judge, with a second of motion
    /// (`motion(t)`, nil: none) each second once the beats reach its end.
    static func judge(
        _ spec: String, seed: UInt64, effects: [ExerciseEffect] = [], motion: (Double) -> MotionSecond?
    ) throws -> (judge: BeatJudge, assessments: [(time: Double, assessment: StressAssessment)]) {
        let (beats, _) = Simulator(scenario: try Scenario(parsing: spec), seed: seed).run()
        var judge = BeatJudge(detector: StressDetector(), effects: effects)
        var pipeline = HRVPipeline()
        var assessments: [(time: Double, assessment: StressAssessment)] = []
        var second = 1.0
        for beat in beats {
            while second <= beat.seconds {
                if let motion = motion(second) { judge.detector.observe(motion, at: second) }
                second += 1
            }
            pipeline.append(RRInterval(ticks: beat.rrTicks)) { assessments.append(($0.beat.seconds, judge.judge($0))) }
        }
        return (judge, assessments)
    }

    /// Rest by its RR (spontaneous breathing near 13/min); from 6 min on the chest says 6/min,
    /// and from 9 min it stops saying (the wearer walked off, or the strap's streams stopped).
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theDetectorJudgesBreathingByTheChestWhileItReadsIt(seed: UInt64) throws {
        let chest = try Self.judge("rest:12m", seed: seed) { t in Self.still(breathing: t >= 360 && t < 540 ? 6 : nil) }
        let blind = try Self.judge("rest:12m", seed: seed) { _ in Self.still(breathing: nil) }
        let slow = chest.assessments.filter { (380...540).contains($0.time) }
        #expect(slow.allSatisfy { $0.assessment.breathingSource == .chest && $0.assessment.breathingRate == 6 }, "seed \(seed)")
        #expect(slow.allSatisfy { $0.assessment.state == .pacedBreathing }, "seed \(seed): \(Set(slow.map(\.assessment.state)))")
        #expect(blind.assessments.filter { (380...540).contains($0.time) }.allSatisfy { $0.assessment.state != .pacedBreathing })
        for run in [chest.assessments.filter { (200...355).contains($0.time) || $0.time >= 560 }, blind.assessments.filter { $0.time >= 200 }] {
            #expect(run.allSatisfy { $0.assessment.breathingSource == .rr }, "seed \(seed)")
            #expect(run.allSatisfy { (9...20).contains($0.assessment.breathingRate ?? 0) }, "seed \(seed)")
        }
    }

    /// Heart rhythm with a tall 0.1 Hz wave (a Mayer wave) and a smaller one at the breath
    /// (0.25 Hz): the highest peak is the slow wave; the chest says which one is the breathing.
    static func intervals(seconds: Double) -> [Double] {
        var (time, intervals) = (0.0, [Double]())
        while time < seconds {
            let interval = 1000 + 40 * sin(2 * .pi * 0.1 * time) + 15 * sin(2 * .pi * 0.25 * time)
            intervals.append(interval)
            time += interval / 1000
        }
        return intervals
    }

    @Test func coherenceCentresItsPeakOnTheChestsBreathing() throws {
        let intervals = Self.intervals(seconds: 64)
        var times: [Double] = []
        var time = 0.0
        for interval in intervals {
            time += interval / 1000
            times.append(time)
        }
        let highest = try #require(Coherence(times: times, intervals: intervals))
        let atTheBreath = try #require(Coherence(times: times, intervals: intervals, breathingFrequency: 0.25))
        #expect(abs(highest.peakFrequency - 0.1) < 0.01 && highest.source == .rr, "\(highest)")
        #expect(abs(atTheBreath.peakFrequency - 0.25) < 0.01 && atTheBreath.source == .chest, "\(atTheBreath)")
        #expect(atTheBreath.score < highest.score / 2, "\(atTheBreath) against \(highest)")
    }

    /// Through the judge: an exercise's coherence readings take the chest's rate while it comes.
    @Test func anExercisesCoherenceTakesTheChestsRate() throws {
        var judge = BeatJudge(detector: StressDetector(), effects: [ExerciseEffect(start: 10, end: 200)])
        var pipeline = HRVPipeline()
        var time = 0.0
        for interval in Self.intervals(seconds: 200) {
            time += interval / 1000
            judge.detector.observe(Self.still(breathing: time < 140 ? 15 : nil), at: time)
            pipeline.append(RRInterval(milliseconds: Int(interval.rounded()))) { _ = judge.judge($0) }
            if (100...101).contains(time) {
                let reading = try #require(judge.effects[0].coherence.latest)
                #expect(reading.source == .chest && abs(reading.peakFrequency - 0.25) < 0.01, "\(reading)")
            }
        }
        let reading = try #require(judge.effects[0].coherence.latest)
        #expect(reading.source == .rr && abs(reading.peakFrequency - 0.1) < 0.01, "the chest stopped: \(reading)")
    }

    @Test func thePacerIsFollowedWithinABreathAMinute() {
        let pattern = BreathingPattern.resonance(breathsPerMinute: 6)
        #expect(pattern.isFollowed(atRate: 6.9) && pattern.isFollowed(atRate: 5.1))
        #expect(!pattern.isFollowed(atRate: 7.5) && !pattern.isFollowed(atRate: 13))
    }
}
