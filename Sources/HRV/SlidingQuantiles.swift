#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Quantiles of the last `capacity` values pushed, kept sorted so a quantile is O(1) and an
/// update is one binary search and one shift between the leaving and the arriving value's slots.
/// Fixed storage: no allocation after init.
struct SlidingQuantiles {
    /// Values in arrival order (a ring), and the same values sorted in `sorted[0..<count]`.
    private var arrival: [Double]
    private var sorted: [Double]
    private var next = 0
    private(set) var count = 0

    init(capacity: Int) {
        arrival = Array(repeating: 0, count: capacity)
        sorted = Array(repeating: 0, count: capacity)
    }

    var capacity: Int { arrival.count }

    mutating func push(_ value: Double) {
        let capacity = arrival.count
        let full = count == capacity
        let leaving = arrival[next]
        arrival[next] = value
        next = next + 1 == capacity ? 0 : next + 1
        let count = self.count
        sorted.withUnsafeMutableBufferPointer { sorted in
            let base = sorted.baseAddress!
            // Take the leaving value out (full) or use the free slot at the end; the new value's
            // place lies on the side of the free slot it is on, so only that side is searched.
            let free = full ? Self.firstIndex(notBelow: leaving, in: sorted, from: 0, to: count) : count
            var target = full && value > leaving
                ? Self.firstIndex(notBelow: value, in: sorted, from: free + 1, to: count)
                : Self.firstIndex(notBelow: value, in: sorted, from: 0, to: free)
            // Shift the run between the free slot and the target by one, in one memmove.
            if target > free {
                target -= 1
                memmove(base + free, base + free + 1, (target - free) * MemoryLayout<Double>.stride)
            } else if target < free {
                memmove(base + target + 1, base + target, (free - target) * MemoryLayout<Double>.stride)
            }
            base[target] = value
        }
        if !full { self.count += 1 }
    }

    /// Linear interpolation between closest ranks (pandas' and numpy's default). Nil when empty.
    func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let position = q * Double(count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + fraction * (sorted[upper] - sorted[lower])
    }

    /// First index in `low..<high` whose value is not less than `value` (`high` if none).
    private static func firstIndex(notBelow value: Double, in sorted: UnsafeMutableBufferPointer<Double>, from low: Int, to high: Int) -> Int {
        var low = low
        var high = high
        while low < high {
            let middle = (low &+ high) &>> 1
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
