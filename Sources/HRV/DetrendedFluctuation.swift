import RealModule

/// Detrended fluctuation analysis of the NN series (Peng et al. 1995): the profile (running sum of
/// the intervals' deviations), cut into non-overlapping boxes of n beats from the start, each box's
/// least-squares line removed; F(n) is the root mean square of what remains, and α the slope of
/// log F(n) against log n — α1 over 4–16 beats (short-term; ≈ 0.75 at the aerobic threshold), α2
/// over 16–64 (every integer n, as NeuroKit2's `fractal_dfa(overlap=False)`; boxes with a mean
/// squared residual ≤ 10⁻⁸ ms² are left out, as there).
///
/// Streams with exact sums: the intervals are integers (microticks), so the profile and the boxes'
/// sums are integers too, and each box's residual comes from exact integers
/// (``DetrendedFluctuation/boxResidual(_:start:before:firstPoint:after:)``); only they are
/// converted to floating point. (Running totals in doubles lose the residual of a day-long
/// profile to cancellation.) O(1) per beat and box.
public struct DetrendedFluctuation: Equatable, Sendable {
    public static let shortScales = 4...16
    public static let longScales = 16...64
    static let largestScale = longScales.upperBound
    /// Slots of the ring below: a power of two above `largestScale`, so a slot is a mask, not a
    /// division.
    private static let ringSize = 128
    /// Intervals are below 2⁴⁴ microticks (4.8 hours; a file's are at most an hour), so a box's
    /// Σy′ and Σj·y′ stay far inside 64 bits and Σy′² inside 128.
    static let intervalLimit: Int64 = 1 << 44

    /// Per ring slot: the running totals up to one of the last `largestScale` + 1 beats, and the
    /// scales whose next box ends after that beat (bit n − 1 for n: a box of n ends every n
    /// beats, and a division per scale and beat would cost more than the boxes).
    private var ring: [Slot]
    private var count = 0
    private var first: Int64 = 0
    private var current = Totals()
    /// Per scale (index n): Σ of the boxes' mean squared residuals (ms²), and the boxes.
    private var scales = (0...largestScale).map { Scale(size: $0) }

    private struct Slot: Equatable, Sendable {
        var totals = Totals()
        var due: UInt64 = 0
    }

    public init() {
        ring = Array(repeating: Slot(), count: Self.ringSize)
        removeAll()
    }

    /// Starts afresh, keeping the storage.
    public mutating func removeAll() {
        count = 0
        current = Totals()
        for n in scales.indices { scales[n] = Scale(size: n) }
        for slot in ring.indices { ring[slot] = Slot() }
        for n in Self.shortScales.lowerBound...Self.largestScale { ring[n].due |= 1 << (n - 1) }
    }

    public mutating func add(_ interval: RRInterval) {
        precondition(interval.microticks.magnitude < Self.intervalLimit, "an interval of \(interval.microticks) microticks")
        if count == 0 { first = interval.microticks }
        // The deviation from the first interval instead of the mean: the profiles then differ by
        // a straight line, which each box's fit removes.
        let y = current.last + Int128(interval.microticks - first)
        let yLow = Int64(truncatingIfNeeded: y)
        current.sum &+= yLow
        current.indexed &+= Int64(truncatingIfNeeded: count) &* yLow
        current.squares &+= y &* y
        current.last = y
        count += 1
        let slot = count & (Self.ringSize - 1)
        let (current, count) = (current, count)
        ring.withUnsafeMutableBufferPointer { ring in
            scales.withUnsafeMutableBufferPointer { scales in
                ring[slot].totals = current
                var ending = ring[slot].due
                ring[slot].due = 0
                while ending != 0 {
                    let n = ending.trailingZeroBitCount &+ 1
                    ending &= ending &- 1
                    let start = count &- n
                    let before = ring[start & (Self.ringSize - 1)].totals
                    let firstPoint = ring[(start &+ 1) & (Self.ringSize - 1)].totals.last
                    if let meanSquare = Self.boxResidual(scales[n], start: start, before: before, firstPoint: firstPoint, after: current) {
                        scales[n].residualSum += meanSquare
                        scales[n].boxes &+= 1
                    }
                    ring[(count &+ n) & (Self.ringSize - 1)].due |= 1 << (n &- 1)
                }
            }
        }
    }

    /// α1 and α2; each nil until the series is longer than its largest box (NeuroKit2's rule).
    public var alphas: (short: Double?, long: Double?) {
        (alpha(over: Self.shortScales), alpha(over: Self.longScales))
    }

    /// F(n), ms; nil without boxes.
    func fluctuation(_ n: Int) -> Double? {
        scales[n].boxes > 0 ? (scales[n].residualSum / Double(scales[n].boxes)).squareRoot() : nil
    }

    private func alpha(over scales: ClosedRange<Int>) -> Double? {
        guard count > scales.upperBound else { return nil }
        var points: [(x: Double, y: Double)] = []
        for n in scales {
            guard let f = fluctuation(n), f > 0 else { return nil }
            points.append((Double.log(Double(n)), Double.log(f)))
        }
        let meanX = points.reduce(0) { $0 + $1.x } / Double(points.count)
        let meanY = points.reduce(0) { $0 + $1.y } / Double(points.count)
        let covariance = points.reduce(0) { $0 + ($1.x - meanX) * ($1.y - meanY) }
        let variance = points.reduce(0) { $0 + ($1.x - meanX) * ($1.x - meanX) }
        return covariance / variance
    }
}
