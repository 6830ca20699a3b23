
/// Quantiles of the last `capacity` non-negative values pushed, kept sorted so a quantile is O(1)
/// and an update is two binary searches and one shift between the leaving and the arriving
/// value's slots. Fixed storage: no allocation after init.
///
/// Values are kept as their IEEE-754 bit patterns: for non-negative doubles these order exactly
/// like the values, and integer keys let the searches run without branches.
struct SlidingQuantiles {
    /// Keys in arrival order (a ring), and the same keys sorted in `sorted[0..<count]`.
    private var arrival: [UInt64]
    private var sorted: [UInt64]
    private var next = 0
    private(set) var count = 0

    init(capacity: Int) {
        arrival = Array(repeating: 0, count: capacity)
        sorted = Array(repeating: 0, count: capacity)
    }

    /// - Parameter value: finite and not negative (RR intervals and absolute differences).
    mutating func push(_ value: Double) {
        precondition(value >= 0 && value.isFinite, "SlidingQuantiles holds non-negative values")
        let key = (value + 0).bitPattern  // + 0 turns -0.0 into +0.0
        let capacity = arrival.count
        let full = count == capacity
        let leaving = arrival[next]
        arrival[next] = key
        next = next + 1 == capacity ? 0 : next + 1
        let count = self.count
        sorted.withUnsafeMutableBufferPointer { sorted in
            let base = sorted.baseAddress!
            // Take the leaving key out (full) or use the free slot at the end; the new key's
            // place lies on the side of the free slot it is on, so only that side is searched.
            let free = full ? Self.firstIndex(notBelow: leaving, in: sorted, from: 0, to: count) : count
            var target = full && key > leaving
                ? Self.firstIndex(notBelow: key, in: sorted, from: free + 1, to: count)
                : Self.firstIndex(notBelow: key, in: sorted, from: 0, to: free)
            // Shift the run between the free slot and the target by one (update handles the overlap).
            if target > free {
                target -= 1
                (base + free).update(from: base + free + 1, count: target - free)
            } else if target < free {
                (base + target + 1).update(from: base + target, count: free - target)
            }
            base[target] = key
        }
        if !full { self.count += 1 }
    }

    /// Half the distance between the first and third quartiles; 0 when empty.
    var quartileDeviation: Double {
        guard count > 0 else { return 0 }
        return (quantile(at: 0.75 * Double(count - 1)) - quantile(at: 0.25 * Double(count - 1))) / 2
    }

    /// Empties the window, keeping its storage.
    mutating func removeAll() {
        next = 0
        count = 0
    }

    /// Linear interpolation between closest ranks (pandas' and numpy's default). Nil when empty.
    func quantile(_ q: Double) -> Double? {
        guard count > 0 else { return nil }
        return quantile(at: q * Double(count - 1))
    }

    /// The value at a fractional rank of the sorted values.
    private func quantile(at position: Double) -> Double {
        let lower = Int(position)
        let upper = min(lower + 1, count - 1)
        let fraction = position - Double(lower)
        let low = Double(bitPattern: sorted[lower])
        return low + fraction * (Double(bitPattern: sorted[upper]) - low)
    }

    /// First index in `low..<high` whose key is not less than `key` (`high` if none).
    ///
    /// Branch-free: the loop count depends only on the range, and each step adds `half` under a
    /// mask taken from the sign of the key difference (keys are below 2^63). The comparisons are
    /// coin flips a branch predictor cannot learn; mispredicted branches were most of the time
    /// spent here.
    private static func firstIndex(notBelow key: UInt64, in sorted: UnsafeMutableBufferPointer<UInt64>, from low: Int, to high: Int) -> Int {
        guard low < high else { return low }
        var base = low
        var length = high - low
        while length > 1 {
            let half = length >> 1
            base &+= half & Self.belowMask(sorted[base + half - 1], key)
            length -= half
        }
        return base &+ (1 & Self.belowMask(sorted[base], key))
    }

    /// All ones when `candidate < key`, else zero.
    @inline(__always)
    private static func belowMask(_ candidate: UInt64, _ key: UInt64) -> Int {
        Int(truncatingIfNeeded: Int64(bitPattern: candidate &- key) >> 63)
    }
}
