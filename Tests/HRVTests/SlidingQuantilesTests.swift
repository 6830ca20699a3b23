import Simulation
import Testing

@testable import HRV

/// The sorted sliding window equals sorting the last `capacity` values, after every push.
@Suite struct SlidingQuantilesTests {
    static func naiveQuantile(_ values: ArraySlice<Double>, _ q: Double) -> Double {
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        return sorted[lower] + (position - Double(lower)) * (sorted[upper] - sorted[lower])
    }

    @Test(arguments: [1, 2, 5, 11, 91, 360])
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
            let recent = pushed.suffix(capacity)
            for q in [0.0, 0.25, 0.5, 0.75, 1.0] where window.quantile(q) != Self.naiveQuantile(recent, q) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
        #expect(window.count == capacity)
    }

    @Test func emptyHasNoQuantile() {
        #expect(SlidingQuantiles(capacity: 5).quantile(0.5) == nil)
    }
}
