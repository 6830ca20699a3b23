/// Quantiles of the last `capacity` non-negative values pushed, kept sorted so a quantile is O(1)
/// and an update is two rank searches and one shift between the leaving and the arriving value's
/// slots. Fixed storage: no allocation after init.
///
/// Values are kept as their IEEE-754 bit patterns: for non-negative doubles these order exactly
/// like the values, and integer keys let the searches run without branches.
struct SlidingQuantiles {
    /// Keys in arrival order (a ring) in the first `capacity` slots, then the same keys sorted,
    /// then infinity's key up to a whole number of blocks: one array, so a push checks one
    /// buffer's uniqueness. The sorted slots from `count` on always hold infinity's key.
    private var storage: [UInt64]
    private let capacity: Int
    /// The sorted keys in blocks of 2^blockShift for the rank searches: the least power of two
    /// at least √capacity and 4 (16 keys for 91, 32 for 360).
    private let blockShift: Int
    private let blocks: Int
    private var next = 0
    private(set) var count = 0

    private static let emptyKey = Double.infinity.bitPattern

    init(capacity: Int) {
        precondition(capacity > 0, "SlidingQuantiles needs room for a value")
        // The least power of two whose square is at least the capacity, and at least 4.
        var shift = 2
        while 1 << (2 * shift) < capacity { shift += 1 }
        blockShift = shift
        blocks = (capacity + (1 << shift) - 1) >> shift
        storage = Array(repeating: 0, count: capacity) + Array(repeating: Self.emptyKey, count: blocks << shift)
        self.capacity = capacity
    }

    /// Inlined: the corrector makes three pushes a beat, and each call's spills and stack frame
    /// cost a fifth of the push.
    ///
    /// - Parameter value: finite and not negative (RR intervals and absolute differences).
    @inline(__always)
    mutating func push(_ value: Double) {
        let key = (value + 0).bitPattern  // + 0 turns -0.0 into +0.0
        // Negative values have the sign bit set and NaNs lie above infinity: one comparison.
        precondition(key < Double.infinity.bitPattern, "SlidingQuantiles holds finite non-negative values")
        let (capacity, count, next) = (self.capacity, self.count, self.next)
        let (blockShift, blocks) = (self.blockShift, self.blocks)
        storage.withUnsafeMutableBufferPointer { storage in
            let arrival = storage.baseAddress!
            let sorted = arrival + capacity
            // Take the leaving key out (full) or use the free slot at the end (every key ranks
            // below infinity's). The new key's rank among the keys held counts the leaving key
            // when it is below: the slot then is one lower.
            let leaving = count == capacity ? arrival[next] : Self.emptyKey
            arrival[next] = key
            let (free, target) = Self.ranks(of: leaving, and: key, in: sorted, blockShift: blockShift, blocks: blocks)
            // Shift the run between the free slot and the target by one, toward the free slot,
            // and put the key in the slot opened. Chosen by masks, not a branch: which way a push
            // shifts is a coin toss, and a mispredicted branch waiting on the searches cost a
            // quarter of the push.
            let freeBelow = (free &- target) >> 63  // all ones when the free slot is below the target
            let slot = target &+ freeBelow
            let destination = (free & freeBelow) | ((target &+ 1) & ~freeBelow)
            let source = destination &+ (~freeBelow | 1)  // one above, or one below
            let distance = slot &- free
            let moved = (distance ^ ~freeBelow) &- ~freeBelow  // |distance|
            (sorted + destination).update(from: sorted + source, count: moved)
            sorted[slot] = key
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
        let (capacity, count) = (self.capacity, self.count)
        storage.withUnsafeMutableBufferPointer { storage in
            (storage.baseAddress! + capacity).update(repeating: Self.emptyKey, count: count)
        }
        next = 0
        self.count = 0
    }

    /// Linear interpolation between closest ranks (pandas' and numpy's default). Nil when empty.
    func quantile(_ q: Double) -> Double? {
        precondition((0...1).contains(q), "a quantile is between 0 and 1, not \(q)")  // the read is unchecked
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

    /// How many of the sorted keys are below each of two keys: their first indices not below.
    ///
    /// Two levels, each a count rather than a search: the blocks whose first key is below a key,
    /// then the keys below it in the last of those blocks (every key before that block is below
    /// the key, and none from the next block on). A binary search is a chain of dependent loads,
    /// ~7 for 91 keys, and the shift after it waited for all of them; these loads are independent,
    /// two rounds deep. Each step adds the sign of a difference (keys are below 2^63): no branches.
    @inline(__always)
    private static func ranks(
        of first: UInt64, and second: UInt64, in sorted: UnsafeMutablePointer<UInt64>,
        blockShift: Int, blocks: Int
    ) -> (Int, Int) {
        var (firstBlocks, secondBlocks) = (0, 0)
        for block in 0..<blocks {
            let head = sorted[block &<< blockShift]
            firstBlocks &-= belowMask(head, first)
            secondBlocks &-= belowMask(head, second)
        }
        // The block holding the rank: the last one starting below the key (or the first).
        let firstStart = max(firstBlocks &- 1, 0) &<< blockShift
        let secondStart = max(secondBlocks &- 1, 0) &<< blockShift
        var (firstRank, secondRank) = (firstStart, secondStart)
        for offset in 0..<(1 &<< blockShift) {
            firstRank &-= belowMask(sorted[firstStart &+ offset], first)
            secondRank &-= belowMask(sorted[secondStart &+ offset], second)
        }
        return (firstRank, secondRank)
    }

    /// All ones when `probe < key`, else 0.
    @inline(__always)
    private static func belowMask(_ probe: UInt64, _ key: UInt64) -> Int {
        Int(bitPattern: UInt(probe &- key)) >> 63
    }
}
