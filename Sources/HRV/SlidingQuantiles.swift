
/// Quantiles of the last `capacity` non-negative values pushed, kept sorted so a quantile is O(1)
/// and an update is two rank searches and one shift between the leaving and the arriving value's
/// slots. Fixed storage: no allocation after init.
///
/// Values are kept as their IEEE-754 bit patterns: for non-negative doubles these order exactly
/// like the values, and integer keys let the searches run without branches.
struct SlidingQuantiles {
    /// Keys in arrival order (a ring), and the same keys sorted in `sorted[0..<count]`.
    private var arrival: [UInt64]
    private var sorted: [UInt64]
    private var next = 0
    private(set) var count = 0
    /// Keys per block of the rank search: about √capacity, so both of its rounds are short.
    private let block: Int

    init(capacity: Int) {
        arrival = Array(repeating: 0, count: capacity)
        sorted = Array(repeating: 0, count: capacity)
        var block = 1
        while block * block < capacity { block += 1 }
        self.block = block
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
        let (count, block) = (self.count, self.block)
        sorted.withUnsafeMutableBufferPointer { sorted in
            let base = sorted.baseAddress!
            // Take the leaving key out (full) or use the free slot at the end. The new key's rank
            // among the keys held counts the leaving key when it is below: the slot then is one
            // lower. Neither search waits for the other.
            let free = full ? Self.rank(of: leaving, in: base, count: count, block: block) : count
            var target = Self.rank(of: key, in: base, count: count, block: block)
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

    /// How many of `sorted[0..<count]` are below `key`: its first index not below it.
    ///
    /// Two rounds of independent comparisons: the last key of every block finds the block `key`
    /// falls in, then that block's keys are counted. A binary search's loads each wait for the
    /// previous comparison; those waits were most of the time spent here. Branch-free: a
    /// difference's sign is the comparison (keys are below 2^63).
    private static func rank(of key: UInt64, in sorted: UnsafeMutablePointer<UInt64>, count: Int, block: Int) -> Int {
        var blocksBelow = 0
        var last = block - 1
        while last < count {
            blocksBelow &+= Int(truncatingIfNeeded: (sorted[last] &- key) >> 63)
            last &+= block
        }
        let start = blocksBelow * block
        var rank = start
        for index in start..<min(start + block - 1, count) {
            rank &+= Int(truncatingIfNeeded: (sorted[index] &- key) >> 63)
        }
        return rank
    }
}
