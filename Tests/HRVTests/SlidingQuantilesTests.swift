import Simulation
import Testing

@testable import HRV

/// The sorted sliding window equals sorting the last `capacity` values, after every push.
@Suite struct SlidingQuantilesTests {
    /// The `q` quantile of `sorted` (already sorted: each step sorts its window once for all its
    /// quantiles, which kept the AddressSanitizer run of this suite the last to finish).
    static func naiveQuantile(sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (position - Double(lower)) * (sorted[upper] - sorted[lower])
    }

    @Test(arguments: [1, 2, 5, 11, 16, 17, 91, 360])
    func matchesSortingTheWindow(capacity: Int) {
        var generator = SeededGenerator(seed: UInt64(capacity))
        var window = SlidingQuantiles(capacity: capacity)
        var pushed: [Double] = []
        var mismatches = 0
        for _ in 0..<5_000 {
            // Few distinct values, so ties and equal leaving/arriving values are common.
            let value = Double(Int.random(in: 0..<20, using: &generator))
            window.push(value)
            pushed.append(value)
            let sorted = pushed.suffix(capacity).sorted()
            for q in [0.0, 0.25, 0.5, 0.75, 1.0] where window.quantile(q) != Self.naiveQuantile(sorted: sorted, q) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(window.count == capacity)
    }

    /// `median` and `quartileDeviation` (the corrector's reads, with integer rank arithmetic) are
    /// the very doubles sorting gives, bit for bit, at every count while filling, after the ring
    /// wraps many times and after `removeAll`; values with fractions, ties and zeros (−0 too).
    @Test(arguments: [1, 2, 3, 4, 11, 16, 17, 91, 92, 360])
    func medianAndQuartileDeviationMatchSorting(capacity: Int) {
        var generator = SeededGenerator(seed: 1_000 + UInt64(capacity))
        var window = SlidingQuantiles(capacity: capacity)
        var pushed: [Double] = []
        var mismatches = 0
        for step in 0..<6_000 {
            if step % 1_500 == 1_499 {
                window.removeAll()
                pushed = []
                #expect(window.count == 0 && window.median == nil && window.quartileDeviation == 0)
            }
            let value: Double = switch Int.random(in: 0..<10, using: &generator) {
            case 0: 0
            case 1: -0.0
            case 2...4: Double(Int.random(in: 600...610, using: &generator))  // ties
            default: Double(Int64.random(in: 0...4_096_000_000, using: &generator)) / 1_024_000  // ms from microticks
            }
            window.push(value)
            pushed.append(value)
            let sorted = pushed.suffix(capacity).sorted()
            let median = Self.naiveQuantile(sorted: sorted, 0.5)
            let deviation = (Self.naiveQuantile(sorted: sorted, 0.75) - Self.naiveQuantile(sorted: sorted, 0.25)) / 2
            if window.median?.bitPattern != median.bitPattern { mismatches += 1 }
            if window.quartileDeviation.bitPattern != deviation.bitPattern { mismatches += 1 }
            if window.count != sorted.count { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func emptyHasNoQuantile() {
        #expect(SlidingQuantiles(capacity: 5).quantile(0.5) == nil)
        #expect(SlidingQuantiles(capacity: 5).median == nil)
        #expect(SlidingQuantiles(capacity: 5).quartileDeviation == 0)
    }
}
