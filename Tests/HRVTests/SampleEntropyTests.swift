@testable import HRV
import Simulation
import Testing

/// The sorted-template count against the definition counted over all pairs.
struct SampleEntropyTests {
    /// −ln(A/B) over every pair of templates: the definition, O(N²).
    static func bruteForce(_ x: [Double]) -> Double? {
        let n = x.count
        let mean = x.reduce(0, +) / Double(n)
        let r = 0.2 * (x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)).squareRoot()
        var (a, b) = (0, 0)
        for i in 0..<(n - 2) {
            for j in (i + 1)..<(n - 2) where max(abs(x[i] - x[j]), abs(x[i + 1] - x[j + 1])) <= r {
                b += 1
                if abs(x[i + 2] - x[j + 2]) <= r { a += 1 }
            }
        }
        return a > 0 && b > 0 ? -log(Double(a) / Double(b)) : nil
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func sortedCountEqualsAllPairs(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        // Whole milliseconds, so ties and distances of exactly r occur.
        let x = (0..<400).map { index in (800 + 40 * sin(Double(index) / 3) + Double.random(in: -30...30, using: &generator)).rounded() }
        var scratch = SampleEntropy.Scratch()
        #expect(SampleEntropy.value(of: x, scratch: &scratch) == Self.bruteForce(x))
    }

    @Test func heapSortOrdersAsTheStandardSort() {
        var generator = SeededGenerator(seed: 9)
        for count in [0, 1, 2, 3, 10, 257] {
            var values = (0..<count).map { _ in Int.random(in: 0..<20, using: &generator) }
            let expected = values.sorted()
            heapSort(&values, by: <)
            #expect(values == expected)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
