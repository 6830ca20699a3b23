import RealModule
@testable import Simulation
import Testing

/// The simulated subject's resonance: its grammar, its response, and that it leaves everything
/// but paced breathing segments as it was.
@Suite struct BaroreflexResonanceTests {
    @Test func parsesRateFlatAndQuality() throws {
        let scenario = try Scenario(parsing: "breathing:2m:br=5,resonance=5.5/min,resonance-q=4")
        #expect(scenario.resonance == BaroreflexResonance(rate: 5.5, quality: 4))
        #expect(scenario.spec == "breathing:2m:br=5,resonance=5.5,resonance-q=4")
        #expect(try Scenario(parsing: scenario.spec) == scenario)
        let flat = try Scenario(parsing: "resonance=flat,breathing:2m")
        #expect(flat.resonance == BaroreflexResonance(rate: nil, quality: BaroreflexResonance.defaultQuality))
        #expect(flat.spec == "breathing:2m,resonance=flat")
        #expect(try Scenario(parsing: "breathing:2m").resonance == nil)
        #expect(Scenario.presets["resonance"]?.resonance?.rate == 5.5)
        #expect(Scenario.presets["resonance"]?.segments.map(\.breathingRate) == [6.5, 6, 5.5, 5, 4.5])
    }

    @Test(arguments: [
        ("breathing:2m,resonance=2", "resonance must be breaths per minute from 3 to 12"),
        ("breathing:2m,resonance=slow", "resonance must be breaths per minute from 3 to 12"),
        ("breathing:2m,resonance=5,resonance=6", "duplicate setting 'resonance'"),
        ("breathing:2m,resonance-q=3", "resonance-q needs resonance="),
        ("breathing:2m,resonance=5,resonance-q=0.1", "resonance-q must be a number from 0.5 to 20"),
    ])
    func rejectsBadSettings(spec: String, reason: String) {
        #expect {
            try Scenario(parsing: spec)
        } throws: { error in
            (error as? ScenarioParseError)?.reason.hasPrefix(reason) == true
        }
    }

    /// A band-pass resonator: full response and no phase at the resonance; less, and HR ahead,
    /// below it; less, and HR behind, above it; the −3 dB points where Q·|f/f₀ − f₀/f| = 1.
    @Test func responseIsABandPass() {
        let subject = BaroreflexResonance(rate: 5.5, quality: 3)
        #expect(subject.response(at: 5.5) == (1, 0))
        let below = subject.response(at: 4.5), above = subject.response(at: 6.5)
        #expect(below.gain < 0.7 && below.lead > 0.5)
        #expect(above.gain < 0.75 && above.lead < -0.5)
        // f/f₀ − f₀/f = 1/3 at f/f₀ = (1/3 + √(1/9 + 4)) / 2.
        let halfPower = 5.5 * (1.0 / 3 + (1.0 / 9 + 4).squareRoot()) / 2
        #expect(abs(subject.response(at: halfPower).gain - 1 / 2.0.squareRoot()) < 1e-12)
        #expect(abs(subject.response(at: halfPower).lead + Double.pi / 4) < 1e-12)
        let flat = BaroreflexResonance(rate: nil)
        #expect(flat.response(at: 4.5) == (1, 0) && flat.response(at: 9) == (1, 0))
    }

    /// The resonance paces only breathing segments: the rest of a scenario is beat for beat what
    /// it is without the setting.
    @Test func onlyBreathingSegmentsChange() throws {
        let plain = Simulator(scenario: try Scenario(parsing: "rest:3m,stress:2m"), seed: 4).run().beats
        let withResonance = Simulator(scenario: try Scenario(parsing: "rest:3m,stress:2m,resonance=5"), seed: 4).run().beats
        #expect(plain == withResonance)
        let free = Simulator(scenario: try Scenario(parsing: "rest:1m,breathing:2m:br=5"), seed: 4).run().beats
        let paced = Simulator(scenario: try Scenario(parsing: "rest:1m,breathing:2m:br=5,resonance=5"), seed: 4).run().beats
        let restBeats = free.prefix { $0.segmentIndex == 0 }.count
        #expect(Array(free.prefix(restBeats - 1)) == Array(paced.prefix(restBeats - 1)))
        #expect(free != paced)
    }
}
