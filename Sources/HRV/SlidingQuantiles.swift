
/// Quantiles of the last `capacity` non-negative values pushed, kept sorted so a quantile is O(1)
/// and an update is two rank searches and one shift between the leaving and the arriving value's
/// slots. Fixed storage: no allocation after init.
///
/// Values are kept as their IEEE-754 bit patterns: for non-negative doubles these order exactly
/// like the values, and integer keys let the searches run without branches.
struct SlidingQuantiles {
    /// Keys in arrival order (a ring) in the first `capacity` slots, the same keys sorted in the
    /// next `count`: one array, so a push checks one buffer's uniqueness.
    private var storage: [UInt64]
    private let capacity: Int
    private var next = 0
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0, "SlidingQuantiles needs room for a value")
        storage = Array(repeating: 0, count: 2 * capacity)
        self.capacity = capacity
    }

    /// - Parameter value: finite and not negative (RR intervals and absolute differences).
    /// Inlined: the corrector makes three pushes a beat, and each call's spills and stack frame
    /// cost a fifth of the push.
    @inline(__always)
    mutating func push(_ value: Double) {
        let key = (value + 0).bitPattern  // + 0 turns -0.0 into +0.0
        // Negative values have the sign bit set and NaNs lie above infinity: one comparison.
        precondition(key < Double.infinity.bitPattern, "SlidingQuantiles holds finite non-negative values")
        let (capacity, count, next) = (self.capacity, self.count, self.next)
        storage.withUnsafeMutableBufferPointer { storage in
            let arrival = storage.baseAddress!
            let sorted = arrival + capacity
            // Take the leaving key out (full) or use the free slot at the end (every key ranks
            // below infinity's). The new key's rank among the keys held counts the leaving key
            // when it is below: the slot then is one lower.
            let leaving = count == capacity ? arrival[next] : Double.infinity.bitPattern
            arrival[next] = key
            var (free, target) = Self.ranks(of: leaving, and: key, in: sorted, count: count)
            // Shift the run between the free slot and the target by one (update handles the overlap).
            if target > free {
                target -= 1
                (sorted + free).update(from: sorted + free + 1, count: target - free)
            } else if target < free {
                (sorted + target + 1).update(from: sorted + target, count: free - target)
            }
            sorted[target] = key
        }
        self.next = next + 1 == capacity ? 0 : next + 1
        if count < capacity { self.count = count + 1 }
    }

    /// Half the distance between the first and third quartiles; 0 when empty. Inlined with
    /// `median`: the corrector reads them every beat.
    @inline(__always)
    var quartileDeviation: Double {
        guard count > 0 else { return 0 }
        return (quarter(3) - quarter(1)) / 2
    }

    /// The 0.5 quantile; nil when empty.
    @inline(__always)
    var median: Double? { count > 0 ? quarter(2) : nil }

    /// Empties the window, keeping its storage.
    mutating func removeAll() {
        next = 0
        count = 0
    }

    /// Linear interpolation between closest ranks (pandas' and numpy's default). Nil when empty.
    func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        let position = q * Double(count - 1)
        let lower = Int(position)
        return value(at: lower, fraction: position - Double(lower))
    }

    /// `quantile(Double(quarters) / 4)` without the floating-point position: `quarters · (count − 1)`
    /// quarters of a rank are exact in a double, so the rank and fraction are the same numbers.
    /// Wrapping arithmetic: the product is below 4 · count.
    @inline(__always)
    private func quarter(_ quarters: Int) -> Double {
        let position = quarters &* (count &- 1)
        return value(at: position &>> 2, fraction: Double(position & 3) * 0.25)
    }

    /// The value `fraction` of the way from the sorted key at `lower` (below `count`) to the next.
    /// Read unchecked: the corrector reads five of these a beat, and the array's checks (with the
    /// index arithmetic's) were half their cost.
    @inline(__always)
    private func value(at lower: Int, fraction: Double) -> Double {
        storage.withUnsafeBufferPointer { storage in
            let sorted = storage.baseAddress! + capacity
            let low = Double(bitPattern: sorted[lower])
            return low + fraction * (Double(bitPattern: sorted[min(lower &+ 1, count &- 1)]) - low)
        }
    }

    /// How many of `sorted[0..<count]` are below each of two keys: their first indices not below.
    ///
    /// Both searches in one loop: the halving depends only on `count`, and the two chains of
    /// loads are independent, so each hides the other's latency (the blocks of comparisons this
    /// replaced took 2 × ~19 of them per push, these 2 × 7 for 91 keys). Branch-free: a step adds
    /// `half` through a mask, the sign of a difference (keys are below 2^63). Written as a
    /// comparison, the compiler made it a branch, mispredicted half the time.
    private static func ranks(
        of first: UInt64, and second: UInt64, in sorted: UnsafeMutablePointer<UInt64>, count: Int
    ) -> (Int, Int) {
        guard count > 0 else { return (0, 0) }
        var (a, b) = (0, 0)
        var length = count
        while length > 1 {
            let half = length >> 1
            a &+= half & Self.belowMask(sorted[a &+ half], first)
            b &+= half & Self.belowMask(sorted[b &+ half], second)
            length &-= half
        }
        return (a &- Self.belowMask(sorted[a], first), b &- Self.belowMask(sorted[b], second))
    }

    /// All ones when `probe < key`, else 0.
    @inline(__always)
    private static func belowMask(_ probe: UInt64, _ key: UInt64) -> Int {
        Int(bitPattern: UInt(probe &- key)) >> 63
    }
}
