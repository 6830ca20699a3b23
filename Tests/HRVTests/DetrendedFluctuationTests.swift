import Simulation
import Testing

@testable import HRV

/// The whole-recording DFA's exact sums over a profile that runs far from zero.
struct DetrendedFluctuationTests {
    /// The profile is measured from the first interval, so another first interval adds a straight
    /// line to it, which every box's fit removes: α1 and α2 are the same, to the last digits (a
    /// box's whole-number slope may then truncate the other way, which moves the rounding). With the
    /// longest interval the DFA takes first and short ones after, the profile drifts by ~1.8·10¹³
    /// a beat and passes 2⁶³ after 524,000 beats (an `analyze --no-correction` of a file starting
    /// with an hour-long interval crashed there): the boxes' sums must not notice.
    @Test func aProfileDriftingPastSixtyFourBitsGivesTheSameAlphas() throws {
        var generator = SeededGenerator(seed: 7)
        var plain = DetrendedFluctuation()
        var drifting = DetrendedFluctuation()
        plain.add(RRInterval(milliseconds: 300))
        drifting.add(RRInterval(microticks: DetrendedFluctuation.intervalLimit - 1))
        for _ in 0..<560_000 {
            let interval = RRInterval(milliseconds: 300 + Int.random(in: 0...40, using: &generator))
            plain.add(interval)
            drifting.add(interval)
        }
        let alphas = plain.alphas
        let (short, long) = (try #require(alphas.short), try #require(alphas.long))
        #expect(abs(try #require(drifting.alphas.short) - short) <= 1e-12 * short)
        #expect(abs(try #require(drifting.alphas.long) - long) <= 1e-12 * long)
    }
}
