import HRV
import Testing

@Suite struct BreathingPacerTests {
    @Test func patterns() throws {
        let resonance = BreathingPattern.resonance()
        #expect(resonance.breathsPerMinute == 6)
        #expect(resonance.phases.map(\.phase) == [.inhale, .exhale])
        #expect(resonance.phases.map(\.seconds) == [4, 6])
        #expect(BreathingPattern.box.phases.map(\.seconds) == [4, 4, 4, 4])
        #expect(BreathingPattern.fourSevenEight.phases.map(\.phase) == [.inhale, .holdIn, .exhale])
        #expect(BreathingPattern.fourSevenEight.cycle == 19)
        #expect(try BreathingPattern(parsing: "4-2-6-2").phases.map(\.seconds) == [4, 2, 6, 2])
        #expect(try BreathingPattern(parsing: "5-0-5").phases.map(\.phase) == [.inhale, .exhale])
        #expect(try BreathingPattern(parsing: "resonance", resonanceRate: 5).breathsPerMinute == 5)
        for bad in ["", "4-4", "0-0-4", "4-x-4", "4-4-4-4-4", "40-0-4", "4--4"] {
            #expect(throws: BreathingPattern.ParseError.self) { try BreathingPattern(parsing: bad) }
        }
    }

    /// Box breathing over one minute: a cue every 4 s, cycling inhale, hold, exhale, hold-out.
    @Test func cuesFollowThePattern() {
        var pacer = BreathingPacer(pattern: .box, start: 100)
        #expect(pacer.startCue.time == 100 && pacer.startCue.phase == .inhale && pacer.startCue.seconds == 4)
        var cues: [BreathingPacer.Cue] = []
        var now = 100.0
        while now < 160 {
            now += 0.05  // 20 frames a second, as the terminal animation
            cues += pacer.advance(to: now)
        }
        #expect(cues.count == 15)
        #expect(cues.map(\.phase).prefix(5) == [.holdIn, .exhale, .holdOut, .inhale, .holdIn])
        for (index, cue) in cues.enumerated() {
            #expect(abs(cue.time - (104 + 4 * Double(index))) < 1e-6)
        }
        #expect(pacer.position.breaths == 3)
    }

    /// Coarse and fine steps give the same cues: the schedule depends on the clock, not the
    /// frame rate.
    @Test func cuesDoNotDependOnStepSize() {
        var coarse = BreathingPacer(pattern: .fourSevenEight, start: 0)
        var fine = BreathingPacer(pattern: .fourSevenEight, start: 0)
        let once = coarse.advance(to: 95)
        var stepped: [BreathingPacer.Cue] = []
        for step in 1...950 { stepped += fine.advance(to: Double(step) / 10) }
        #expect(once.count == stepped.count)
        #expect(zip(once, stepped).allSatisfy { $0.phase == $1.phase && abs($0.time - $1.time) < 1e-6 })
        #expect(once.count == 15)  // 95 s = 5 breaths of 19 s, 3 phases each
    }

    /// A rate change mid-breath keeps the point within the breath.
    @Test func rateChangeIsPhaseContinuous() {
        var pacer = BreathingPacer(pattern: .resonance(breathsPerMinute: 6), start: 0)
        _ = pacer.advance(to: 12)  // 1.2 breaths: 2 s into the 4 s inhale
        let before = pacer.position
        #expect(before.phase == .inhale)
        #expect(abs(before.progress - 0.5) < 1e-9)
        pacer.change(to: .resonance(breathsPerMinute: 5))  // 12 s breaths: 4.8 s inhale
        let after = pacer.position
        #expect(after.phase == .inhale)
        #expect(abs(after.progress - 0.5) < 1e-9)
        #expect(abs(after.remaining - 2.4) < 1e-9)
        let cues = pacer.advance(to: 14.4)
        #expect(cues.map(\.phase) == [.exhale])
        #expect(abs((cues.first?.time ?? 0) - 14.4) < 1e-9)
        #expect(abs((cues.first?.seconds ?? 0) - 7.2) < 1e-9)
    }
}
