import Simulation
import Testing

@testable import HRV

/// RecentBeats keeps its last intervals in shifted vector lanes; its heart rate is the plain one
/// over the last eight intervals of a list, summed oldest first, to the last bit.
@Suite struct RecentBeatsTests {
    @Test(arguments: [UInt64(1), 2])
    func heartRateIsThatOfTheLastEightIntervals(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var recent = RecentBeats()
        var intervals: [Double] = []
        for beat in 0..<5_000 {
            if beat % 1_000 == 999 {
                recent.removeAll()
                intervals = []
            }
            let milliseconds = Double(Int.random(in: 300_000...1_500_000, using: &generator)) / 1_000
            recent.append(milliseconds: milliseconds)
            intervals.append(milliseconds)
            let last = intervals.suffix(RecentBeats.heartRateBeats)
            let expected = last.count == RecentBeats.heartRateBeats ? 60_000 * Double(last.count) / last.reduce(0, +) : nil
            #expect(recent.heartRate == expected)
        }
    }
}
