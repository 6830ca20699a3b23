import RealModule

/// Detrended fluctuation analysis of the NN series (Peng et al. 1995): the profile (running sum of
/// the intervals' deviations), cut into non-overlapping boxes of n beats from the start, each box's
/// least-squares line removed; F(n) is the root mean square of what remains, and α the slope of
/// log F(n) against log n — α1 over 4–16 beats (short-term; ≈ 0.75 at the aerobic threshold), α2
/// over 16–64 (every integer n, as NeuroKit2's `fractal_dfa(overlap=False)`; boxes with a mean
/// squared residual ≤ 10⁻⁸ ms² are left out, as there).
///
/// Streams with exact sums: the intervals are integers (microticks), so the profile and the boxes'
/// sums of y, y² and k·y are integers too; they are kept as running totals in wrapping 128-bit
/// arithmetic, whose differences over a box are exact, and only each box's residual is
/// converted to floating point. (Running totals in doubles lose the residual of a day-long
/// profile to cancellation.) O(1) per beat and box.
public struct DetrendedFluctuation: Equatable, Sendable {
    public static let shortScales = 4...16
    public static let longScales = 16...64
    static let largestScale = longScales.upperBound
    /// Slots of the rings below: a power of two above `largestScale`, so a slot is a mask, not a
    /// division.
    private static let ringSize = 128

    /// Running totals of y, y² and k·y up to each of the last `largestScale` + 1 beats (a ring).
    private var totals: [Totals]
    private var count = 0
    private var first: Int64 = 0
    private var profile: Int64 = 0
    private var current = Totals()
    /// Per scale (index n): Σ of the boxes' mean squared residuals (ms²), and the boxes.
    private var residualSums = [Double](repeating: 0, count: largestScale + 1)
    private var boxes = [Int](repeating: 0, count: largestScale + 1)
    /// The scales whose next box ends after each of the next beats (a ring, bit n − 1 for n):
    /// a box of n ends every n beats, and a division per scale and beat would cost more than
    /// the boxes.
    private var due: [UInt64]

    private struct Totals: Equatable, Sendable {
        var sum: Int128 = 0
        var squares: Int128 = 0
        var indexed: Int128 = 0
        /// The profile value these totals end with.
        var last: Int64 = 0
    }

    public init() {
        totals = Array(repeating: Totals(), count: Self.ringSize)
        due = Array(repeating: 0, count: Self.ringSize)
        removeAll()
    }

    /// Starts afresh, keeping the storage.
    public mutating func removeAll() {
        count = 0
        profile = 0
        current = Totals()
        totals[0] = Totals()
        for n in residualSums.indices {
            residualSums[n] = 0
            boxes[n] = 0
        }
        for slot in due.indices { due[slot] = 0 }
        for n in Self.shortScales.lowerBound...Self.largestScale { due[n] |= 1 << (n - 1) }
    }

    public mutating func add(_ interval: RRInterval) {
        if count == 0 { first = interval.microticks }
        // The deviation from the first interval instead of the mean: the profiles then differ by
        // a straight line, which each box's fit removes.
        profile += interval.microticks - first
        let y = Int128(profile)
        current.sum &+= y
        current.squares &+= y &* y
        current.indexed &+= Int128(count) &* y
        current.last = profile
        count += 1
        let slot = count & (Self.ringSize - 1)
        totals[slot] = current
        var ending = due[slot]
        due[slot] = 0
        while ending != 0 {
            let n = ending.trailingZeroBitCount + 1
            ending &= ending - 1
            addBox(of: n)
            due[(count + n) & (Self.ringSize - 1)] |= 1 << (n - 1)
        }
    }

    /// α1 and α2; each nil until the series is longer than its largest box (NeuroKit2's rule).
    public var alphas: (short: Double?, long: Double?) {
        (alpha(over: Self.shortScales), alpha(over: Self.longScales))
    }

    /// F(n), ms; nil without boxes.
    func fluctuation(_ n: Int) -> Double? {
        boxes[n] > 0 ? (residualSums[n] / Double(boxes[n])).squareRoot() : nil
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

    /// The box of the last n profile points: its residual from its least-squares line.
    ///
    /// As the sums of z = y − b − m·j (j from the box's start), with b and m a whole-number line
    /// through the box's first and last points: what is left of a day-long profile's steep trend,
    /// so the residual does not come out of the difference of two numbers ten orders of magnitude
    /// larger than itself. n·Σz² − (Σz)² and n·Σj·z − t1·Σz do not depend on b; with
    /// A = n·Σy² − (Σy)², B = n·Σj·y − t1·Σy and D = n²(n² − 1)/12 they are A − 2m·B + m²·D and
    /// B − m·D, exact in wrapping arithmetic as their values fit 128 bits.
    private mutating func addBox(of n: Int) {
        let before = totals[(count - n) & (Self.ringSize - 1)]
        let firstPoint = totals[(count - n + 1) & (Self.ringSize - 1)].last
        let (s1, s2, s3) = (current.sum &- before.sum, current.squares &- before.squares, current.indexed &- before.indexed)
        // Wrapping operations: the differences are exact, and checked 128-bit multiplication is
        // a library call.
        let size = Int128(n)
        let start = Int128(count - n)
        let slope = Int128((current.last - firstPoint) / Int64(n - 1))
        let t1 = Int128(n * (n - 1) / 2)
        let d = Int128(n * n * (n * n - 1) / 12)
        let a = size &* s2 &- s1 &* s1
        let b = size &* (s3 &- start &* s1) &- t1 &* s1
        // n²·Σ(z − z̄)² / n and n·Σ(j − j̄)(z − z̄); n·Σ(j − j̄)² = n²(n² − 1)/12.
        let u = IntervalStatistics.double(a &- 2 &* slope &* b &+ slope &* slope &* d)
        let v = IntervalStatistics.double(b &- slope &* d)
        let spread = Double(n * n * (n * n - 1)) / 12
        let squaredResiduals = (u - v * v / spread) / Double(n)
        let microticksPerMillisecond = Double(RRInterval.microticksPerMillisecond)
        let meanSquare = squaredResiduals / Double(n) / (microticksPerMillisecond * microticksPerMillisecond)
        guard meanSquare > 1e-8 else { return }
        residualSums[n] += meanSquare
        boxes[n] += 1
    }
}
