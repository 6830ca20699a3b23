/// Exact running sums over a set of RR intervals and their successive differences.
///
/// Everything is integer microticks, so sums never drift: a rolling window, the recording's
/// running totals less their value at the window's oldest beat, holds after a day of beats
/// exactly the sums a recomputation would give.
/// Squares go to Int128 because a microtick is small (a 1 s interval squared is ~1e18).
public struct IntervalStatistics: Equatable, Sendable {
    // The two 128-bit sums first: they are 16-byte aligned, and between the 8-byte fields they
    // left padding that every update's copies of both windows carried (96 bytes instead of 80).
    private var sumOfSquares: Int128 = 0
    private var sumOfSquaredDifferences: Int128 = 0
    public private(set) var count = 0
    public private(set) var differenceCount = 0
    private var sum: Int64 = 0
    private var sumOfDifferences: Int64 = 0
    private var differencesAbove50ms = 0
    private var differencesAbove20ms = 0

    /// |ΔRR| > 50 ms and > 20 ms, compared exactly in microticks.
    static let nn50Threshold: Int64 = 50 * RRInterval.microticksPerMillisecond
    static let nn20Threshold: Int64 = 20 * RRInterval.microticksPerMillisecond

    public init() {}

    public init(_ intervals: some Sequence<RRInterval>) {
        var previous: RRInterval?
        for interval in intervals {
            add(interval)
            if let previous { addDifference(previous, interval) }
            previous = interval
        }
    }

    // add and add(difference:) are forced inline: the recording's totals make them on every
    // beat, and a call with its register spills cost about as much as the sums.
    @inline(__always)
    public mutating func add(_ interval: RRInterval) {
        count += 1
        sum += interval.microticks
        sumOfSquares += Int128(interval.microticks) * Int128(interval.microticks)
    }

    /// Adds the successive difference between two adjacent intervals.
    public mutating func addDifference(_ earlier: RRInterval, _ later: RRInterval) {
        add(difference: later.microticks - earlier.microticks)
    }

    /// Adds a successive difference (later − earlier interval), in microticks.
    @inline(__always)
    mutating func add(difference: Int64) {
        differenceCount += 1
        sumOfDifferences += difference
        sumOfSquaredDifferences += Int128(difference) * Int128(difference)
        if difference.magnitude > Self.nn50Threshold { differencesAbove50ms += 1 }
        if difference.magnitude > Self.nn20Threshold { differencesAbove20ms += 1 }
    }

    /// The sums over what was added since `earlier`, a state these sums grew from by additions
    /// only (running totals at an earlier beat): exact, as every sum is an integer.
    @inline(__always)
    func subtracting(_ earlier: IntervalStatistics) -> IntervalStatistics {
        var rest = self
        rest.count -= earlier.count
        rest.differenceCount -= earlier.differenceCount
        rest.sum -= earlier.sum
        rest.sumOfSquares -= earlier.sumOfSquares
        rest.sumOfDifferences -= earlier.sumOfDifferences
        rest.sumOfSquaredDifferences -= earlier.sumOfSquaredDifferences
        rest.differencesAbove50ms -= earlier.differencesAbove50ms
        rest.differencesAbove20ms -= earlier.differencesAbove20ms
        return rest
    }

    /// RMSSD in ms alone, for per-beat consumers that need nothing else.
    public var rmssd: Double? {
        guard differenceCount > 0 else { return nil }
        return (Self.double(sumOfSquaredDifferences) / Double(differenceCount)).squareRoot()
            / Double(RRInterval.microticksPerMillisecond)
    }

    /// 60,000 / MeanNN alone.
    public var meanHR: Double? {
        guard count > 0 else { return nil }
        return 60 * Double(RRInterval.microticksPerSecond) * Double(count) / Double(sum)
    }

    /// The metrics, or nil for an empty set.
    public var metrics: TimeDomainMetrics? {
        guard count > 0 else { return nil }
        let perMs = Double(RRInterval.microticksPerMillisecond)
        let meanNN = Double(sum) / Double(count) / perMs
        var metrics = TimeDomainMetrics(
            beats: count, differences: differenceCount, meanNN: meanNN,
            sdnn: Self.sampleStandardDeviation(count: count, sum: sum, sumOfSquares: sumOfSquares).map { $0 / perMs },
            meanHR: 60_000 / meanNN)
        if differenceCount > 0 {
            metrics.rmssd = rmssd
            metrics.pnn50 = 100 * Double(differencesAbove50ms) / Double(count)
            metrics.pnn20 = 100 * Double(differencesAbove20ms) / Double(count)
        }
        metrics.sdsd = Self.sampleStandardDeviation(
            count: differenceCount, sum: sumOfDifferences, sumOfSquares: sumOfSquaredDifferences).map { $0 / perMs }
        // Poincaré short axis: the spread of the pairs across the identity line.
        metrics.sd1 = metrics.sdsd.map { $0 / 2.0.squareRoot() }
        return metrics
    }

    /// √((n·Σx² − (Σx)²) / (n(n − 1))): exact up to the final division and root; nil below two values.
    static func sampleStandardDeviation(count: Int, sum: Int64, sumOfSquares: Int128) -> Double? {
        guard count > 1 else { return nil }
        let n = Int128(count)
        let numerator = n * sumOfSquares - Int128(sum) * Int128(sum)
        return (double(numerator) / double(n * (n - 1))).squareRoot()
    }

    /// Int128 → Double through the two 64-bit halves: the generic conversion is not specialised
    /// and was most of the per-beat cost. At most one extra rounding step (< 1e-15 relative).
    /// The magnitude is split, not the two's complement: a small negative value's low half is
    /// near 2⁶⁴, and rounding it lost the value itself.
    static func double(_ value: Int128) -> Double {
        let magnitude = value.magnitude
        let double = Double(UInt64(truncatingIfNeeded: magnitude >> 64)) * 0x1p64 + Double(UInt64(truncatingIfNeeded: magnitude))
        return value < 0 ? -double : double
    }
}
