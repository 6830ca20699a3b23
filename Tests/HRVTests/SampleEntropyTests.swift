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
        // Whole milliseconds, so ties occur (r = 0.2·SD is rarely whole: see the test after).
        let x = (0..<400).map { index in (800 + 40 * sin(Double(index) / 3) + Double.random(in: -30...30, using: &generator)).rounded() }
        var scratch = SampleEntropy.Scratch()
        #expect(SampleEntropy.value(of: x.map { RRInterval(milliseconds: Int($0)) }, scratch: &scratch) == Self.bruteForce(x))
    }

    /// Strap ticks (1/1024 s, so fractions of a millisecond), counted on whole microticks; and
    /// the same with a 4-s pause among them, whose range (beyond 2.1 s) is counted in milliseconds.
    @Test(arguments: [UInt64(5), 6])
    func countOnMicroticksEqualsAllPairs(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var intervals = (0..<400).map { index in RRInterval(ticks: UInt16(820 + 40 * sin(Double(index) / 3) + Double.random(in: -30...30, using: &generator))) }
        var scratch = SampleEntropy.Scratch()
        #expect(SampleEntropy.value(of: intervals, scratch: &scratch) == Self.bruteForce(intervals.map(\.milliseconds)))
        intervals[200] = RRInterval(milliseconds: 4000)
        #expect(SampleEntropy.value(of: intervals, scratch: &scratch) == Self.bruteForce(intervals.map(\.milliseconds)))
    }

    /// Intervals a few microticks apart: r is then a few microticks (~3.7), and many pairs lie
    /// exactly at the largest whole number of microticks within it, where the lanes' comparison
    /// decides.
    @Test func pairsAtTheLargestWholeDistanceWithinRAreCounted() {
        var generator = SeededGenerator(seed: 11)
        let intervals = (0..<400).map { _ in RRInterval(microticks: 1_000_000_000 + Int64.random(in: 0..<64, using: &generator)) }
        var scratch = SampleEntropy.Scratch()
        #expect(SampleEntropy.value(of: intervals, scratch: &scratch) == Self.bruteForce(intervals.map(\.milliseconds)))
    }

    @Test func bucketSortOrdersAsTheStandardSort() {
        var generator = SeededGenerator(seed: 9)
        for count in [0, 1, 2, 3, 10, 257] {
            // Few distinct values, so ties occur: they keep their order (the sort is stable); then
            // spread values, and values crowded into a bucket or two by an outlier.
            let draws: [[Double]] = [
                (0..<count).map { _ in Double(Int.random(in: 0..<20, using: &generator)) },
                (0..<count).map { _ in Double.random(in: 300...1500, using: &generator) },
                (0..<count).map { index in index == count / 2 ? 3_600_000 : Double.random(in: 800...801, using: &generator) },
                Array(repeating: 812.5, count: count),
            ]
            for values in draws {
                let keys = values.enumerated().map { SampleEntropy.SortKey(value: $1, index: $0) }
                let expected = keys.sorted { $0.value < $1.value || ($0.value == $1.value && $0.index < $1.index) }
                var (input, sorted, buckets) = (keys, keys, [Int](repeating: 0, count: count + 1))
                input.withUnsafeMutableBufferPointer { input in
                    sorted.withUnsafeMutableBufferPointer { sorted in
                        buckets.withUnsafeMutableBufferPointer { SampleEntropy.bucketSort(input, into: sorted, buckets: $0) }
                    }
                }
                #expect(sorted == expected, "\(count) keys")
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
