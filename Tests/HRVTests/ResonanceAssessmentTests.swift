import Foundation
@testable import HRV
import Simulation
import Testing

/// The resonance-frequency assessment: each criterion on hearts whose oscillation is known, the
/// recommendation on simulated subjects whose resonance is known, and no recommendation where
/// there is nothing to recommend.
@Suite struct ResonanceAssessmentTests {
    static let rates = ResonanceProtocol.standardRates

    /// Beats of a heart whose interval is `rr(t)` ms at the middle of each interval (solved by
    /// fixed-point iteration), for `seconds`.
    static func beats(seconds: Double, _ rr: (Double) -> Double) -> [Beat] {
        var beats: [Beat] = []
        var time: Int64 = 0
        while Double(time) / Double(RRInterval.microticksPerSecond) < seconds {
            let start = Double(time) / Double(RRInterval.microticksPerSecond)
            var interval = rr(start)
            for _ in 0..<5 { interval = rr(start + interval / 2000) }
            let rrInterval = RRInterval(microticks: Int64((interval * Double(RRInterval.microticksPerMillisecond)).rounded()))
            time += rrInterval.microticks
            beats.append(Beat(interval: rrInterval, time: time))
        }
        return beats
    }

    /// The beats of a simulation, as measured (these scenarios have no artifacts).
    static func beats(_ scenario: Scenario, seed: UInt64) -> [Beat] {
        var time: Int64 = 0
        return Simulator(scenario: scenario, seed: seed).run().beats.map { beat in
            let interval = RRInterval(ticks: beat.rrTicks)
            time += interval.microticks
            return Beat(interval: interval, time: time)
        }
    }

    static func assess(_ beats: [Beat], _ schedule: ResonanceProtocol = ResonanceProtocol()) -> ResonanceResult {
        var assessment = ResonanceAssessment(schedule: schedule)
        for beat in beats { assessment.add(beat) }
        return assessment.finish()
    }

    /// The standard protocol breathed by a subject with this resonance.
    static func subject(_ resonance: BaroreflexResonance) -> Scenario {
        Scenario(segments: rates.map { Segment(kind: .breathing, duration: 120, breathingRate: $0) }, resonance: resonance)
    }

    /// RR = 1000 − 50·cos(pacer phase − volume peak + lead) ms at each rate: heart rate swings
    /// 60000/950 − 60000/1050 = 6.02 bpm peak to trough, `lead` ahead of the lung volume; the
    /// RR wave's power is 50²/2 = 1250 ms² (Parseval), all of it in LF at these rates.
    @Test(arguments: [0.0, 40, -70])
    func measuresAKnownOscillation(leadDegrees: Double) throws {
        let schedule = ResonanceProtocol()
        let lead = leadDegrees * .pi / 180
        let beats = Self.beats(seconds: schedule.end) { t in
            guard let step = schedule.step(at: t) else { return 1000 }
            return 1000 - 50 * cos(2 * .pi * (schedule.cycles(step, at: t) - schedule.volumePeak) + lead)
        }
        let result = Self.assess(beats, schedule)
        for step in result.steps {
            #expect(step.unreliable == nil)
            let amplitude = try #require(step.heartRateAmplitude)
            #expect(amplitude > 5.6 && amplitude <= 6.03, "\(step.rate): \(amplitude)")
            #expect(abs(try #require(step.phase) - leadDegrees) < 2, "\(step.rate)")
            #expect(try #require(step.phaseConsistency) > 0.999)
            #expect(try #require(step.smoothness) > 0.99)
            #expect(abs(try #require(step.lfPeak) - step.rate / 60) <= 1.0 / 512)
            #expect(abs(try #require(step.lf) / 1250 - 1) < 0.1, "\(step.rate): \(step.lf ?? 0)")
            #expect(step.breaths >= Int((90 * step.rate / 60).rounded(.down)) - 1)
        }
        // Every step alike: nothing to recommend.
        #expect(result.best == nil)
        #expect(result.noRecommendation == .noClearResonance)
    }

    /// HR out of step with the breath scores no synchrony: at 180° the cosine is negative.
    @Test func antiPhaseHasNoSynchrony() throws {
        let schedule = ResonanceProtocol(rates: [6, 5])
        let beats = Self.beats(seconds: schedule.end) { t in
            1000 + 50 * cos(2 * .pi * (schedule.cycles(schedule.step(at: t) ?? 0, at: t) - schedule.volumePeak))
        }
        for step in Self.assess(beats, schedule).steps {
            #expect(abs(abs(try #require(step.phase)) - 180) < 2)
            #expect(step.synchrony == 0)
        }
    }

    /// Five subjects with known resonance, eight seeds each: the assessment recommends the
    /// subject's rate every time (40 of 40).
    @Test(arguments: rates)
    func recommendsTheSubjectsResonance(resonance: Double) throws {
        var found: [Double?] = []
        for seed in UInt64(1)...8 {
            let result = Self.assess(Self.beats(Self.subject(BaroreflexResonance(rate: resonance)), seed: seed))
            #expect(result.steps.allSatisfy { $0.unreliable == nil })
            found.append(result.best)
            #expect(result.bestIsAtEdge == (resonance == 4.5 || resonance == 6.5))
        }
        #expect(found == Array(repeating: resonance, count: 8), "resonance \(resonance): \(found)")
    }

    /// A subject without resonance (the same response at every rate): no seed of eight gets a
    /// recommendation, and the leading step's contrast stays well under the threshold.
    @Test func flatSubjectGetsNoRecommendation() throws {
        for seed in UInt64(1)...8 {
            let result = Self.assess(Self.beats(Self.subject(BaroreflexResonance(rate: nil)), seed: seed))
            #expect(result.best == nil, "seed \(seed)")
            #expect(result.noRecommendation == .noClearResonance)
            #expect(try #require(result.contrast) < 1.2, "seed \(seed)")
        }
    }

    /// A link gap in the resonance step: that step is unreliable and unscored, not scored as if
    /// whole; the others still are.
    @Test func gapMakesAStepUnreliable() throws {
        var beats = Self.beats(Self.subject(BaroreflexResonance(rate: 5.5)), seed: 3)
        let cut = try #require(beats.firstIndex { $0.seconds > 300 })
        let resume = try #require(beats.firstIndex { $0.seconds > 315 })
        beats.removeSubrange(cut..<resume)
        beats[cut].followsGap = true
        let result = Self.assess(beats)
        #expect(result.steps[2].unreliable == "a gap in the beats")
        #expect(result.scores[2] == nil)
        #expect(result.steps.indices.filter { result.scores[$0] != nil } == [0, 1, 3, 4])
    }

    /// A recording that stops during the second step: one step can be scored, so nothing is
    /// recommended, and the steps say why.
    @Test func tooFewBeatsGiveNoRecommendation() throws {
        let beats = Self.beats(Self.subject(BaroreflexResonance(rate: 5.5)), seed: 2).filter { $0.seconds < 200 }
        let result = Self.assess(beats)
        #expect(result.steps.map(\.unreliable) == [nil, "cut short by the recording's end", "not recorded", "not recorded", "not recorded"])
        #expect(result.best == nil)
        #expect(result.noRecommendation == .tooFewReliableSteps(reliable: 1))
    }

    /// Too many corrected beats in a step (a quarter of those from 160 s on, 22 % of its scored
    /// part's): unreliable.
    @Test func correctedBeatsMakeAStepUnreliable() throws {
        var beats = Self.beats(Self.subject(BaroreflexResonance(rate: 5.5)), seed: 5)
        for index in beats.indices where beats[index].seconds > 160 && beats[index].seconds < 240 && index % 4 == 0 {
            beats[index].artifact = .ectopic
        }
        let result = Self.assess(beats)
        #expect(result.steps[1].unreliable == "22 % of beats corrected")
        #expect(result.steps[0].unreliable == nil)
    }

    /// Steps that start later on the timeline: the same beats shifted give the same steps.
    @Test func scheduleStartShiftsTheSteps() throws {
        let beats = Self.beats(Self.subject(BaroreflexResonance(rate: 6)), seed: 1)
        let lead = Self.beats(seconds: 45) { _ in 1000 }
        let shifted = lead + beats.map { Beat(interval: $0.interval, time: $0.time + lead.last!.time) }
        let direct = Self.assess(beats)
        let later = Self.assess(shifted, ResonanceProtocol(start: Double(lead.last!.time) / Double(RRInterval.microticksPerSecond)))
        #expect(later.best == 6 && direct.best == 6)
        for (a, b) in zip(direct.steps, later.steps) {
            #expect(abs((a.heartRateAmplitude ?? 0) - (b.heartRateAmplitude ?? 0)) < 1e-9)
            #expect(abs((a.phase ?? 0) - (b.phase ?? 0)) < 1e-6)
        }
    }
}
