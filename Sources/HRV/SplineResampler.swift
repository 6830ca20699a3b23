/// The NN tachogram resampled evenly by a cubic spline through the beats, with not-a-knot ends
/// (scipy's `CubicSpline` default, and the Kubios/Task Force method for spectra): knots at the
/// beat times (each interval at the beat that ends it), samples at the first beat's time plus
/// k/`sampleRate`, up to the last beat; nothing extrapolated.
///
/// It streams: the spline's slopes solve a tridiagonal system, whose forward elimination runs
/// beat by beat; a knot's slope depends on knots far ahead only through a factor of about
/// 2 − √3 ≈ 0.27 per knot, so the back substitution starts `lookahead` knots ahead (0.27⁶⁴ is far
/// below a double's precision) and the samples up to there are final. Memory is a few hundred
/// knots whatever the length.
struct SplineResampler {
    let sampleRate: Double
    /// Knots beyond the last emitted interval before the back substitution starts.
    static let lookahead = 64
    /// Knots kept: the look-ahead and a batch to emit at once.
    static let capacity = 4 * lookahead

    /// Knot times (s) and values (ms), first-in-first-out, `count` of them from `start`.
    private var times: [Double]
    private var values: [Double]
    /// The forward-eliminated rows, normalised by their pivots: slope[i] = rhs[i] − upper[i]·slope[i+1].
    private var upper: [Double]
    private var rhs: [Double]
    /// Slopes solved for the knots up to the emission point.
    private var slopes: [Double]
    private var count = 0
    /// Knots seen since the start (the first three set the not-a-knot row).
    private var seen = 0
    private var origin = 0.0
    private var nextSample = 0
    /// Index (into the buffers) of the first knot whose interval has not been sampled.
    private var emitted = 0

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        times = Array(repeating: 0, count: Self.capacity)
        values = times
        upper = times
        rhs = times
        slopes = times
    }

    /// Adds a knot (times increasing); `emit` receives each sample now final, in order.
    mutating func append(time: Double, value: Double, emit: (Double) -> Void) {
        if count == Self.capacity { compact() }
        times[count] = time
        values[count] = value
        count += 1
        seen += 1
        if seen == 1 { origin = time }
        // Row i of the system needs knots i−1, i, i+1: eliminate the row of the knot before.
        if count >= 3 { eliminate(row: count - 2) }
        if count - emitted > Self.lookahead + Self.lookahead / 2 {
            solveBack(from: count - 2, exactEnd: false)
            emitIntervals(upTo: count - 1 - Self.lookahead, emit: emit)
        }
    }

    /// Samples the rest, with the not-a-knot condition at the true end; then starts afresh.
    mutating func finish(emit: (Double) -> Void) {
        defer { reset() }
        guard count > 0 else { return }
        switch seen {
        case 1:
            emit(values[0])
        case 2:
            // A straight line through two knots.
            slopes[count - 2] = (values[count - 1] - values[count - 2]) / (times[count - 1] - times[count - 2])
            slopes[count - 1] = slopes[count - 2]
            emitIntervals(upTo: count - 1, emit: emit, final: true)
        case 3:
            // Not-a-knot with three knots is the parabola through them.
            let (t0, t1, t2) = (times[count - 3], times[count - 2], times[count - 1])
            let (v0, v1, v2) = (values[count - 3], values[count - 2], values[count - 1])
            let (d0, d1) = ((v1 - v0) / (t1 - t0), (v2 - v1) / (t2 - t1))
            let curvature = (d1 - d0) / (t2 - t0)
            slopes[count - 3] = d0 - curvature * (t1 - t0)
            slopes[count - 2] = d0 + curvature * (t1 - t0)
            slopes[count - 1] = d1 + curvature * (t2 - t1)
            emitIntervals(upTo: count - 1, emit: emit, final: true)
        default:
            solveBack(from: count - 1, exactEnd: true)
            emitIntervals(upTo: count - 1, emit: emit, final: true)
        }
    }

    // MARK: the system for the slopes (as scipy's CubicSpline sets it up)

    private func dx(_ i: Int) -> Double { times[i + 1] - times[i] }
    private func slope(_ i: Int) -> Double { (values[i + 1] - values[i]) / dx(i) }

    /// Forward elimination of row `i` (a knot with neighbours on both sides, or the first row).
    private mutating func eliminate(row i: Int) {
        if seen - (count - 1 - i) == 2 {
            // The first knot's not-a-knot row: dx1·s0 + (t2 − t0)·s1 = b0.
            let d = times[i + 1] - times[i - 1]
            let first = i - 1
            let b0 = ((dx(first) + 2 * d) * dx(i) * slope(first) + dx(first) * dx(first) * slope(i)) / d
            upper[first] = d / dx(i)
            rhs[first] = b0 / dx(i)
        }
        // Interior row: dx(i)·s(i−1) + 2(dx(i−1) + dx(i))·s(i) + dx(i−1)·s(i+1) = 3(dx(i)·m(i−1) + dx(i−1)·m(i))
        let (lower, diagonal, above) = (dx(i), 2 * (dx(i - 1) + dx(i)), dx(i - 1))
        let b = 3 * (dx(i) * slope(i - 1) + dx(i - 1) * slope(i))
        let pivot = diagonal - lower * upper[i - 1]
        upper[i] = above / pivot
        rhs[i] = (b - lower * rhs[i - 1]) / pivot
    }

    /// Back substitution from row `last` down to the first unemitted knot. With `exactEnd` the
    /// last knot's not-a-knot row closes the system; otherwise the slope beyond `last` is taken as
    /// zero, an error that has died out by the knots emitted.
    private mutating func solveBack(from last: Int, exactEnd: Bool) {
        var row = last
        if exactEnd {
            // The last row, d·s(L−1) + dx(L−2)·s(L) = b with d = t(L) − t(L−2), closed with
            // row L−1 as eliminated: s(L−1) = rhs − upper·s(L).
            let d = times[last] - times[last - 2]
            let b = (dx(last - 1) * dx(last - 1) * slope(last - 2) + (2 * d + dx(last - 1)) * dx(last - 2) * slope(last - 1)) / d
            slopes[last] = (b - d * rhs[last - 1]) / (dx(last - 2) - d * upper[last - 1])
            row = last - 1
        } else {
            slopes[last + 1] = 0
        }
        while row >= emitted {
            slopes[row] = rhs[row] - upper[row] * slopes[row + 1]
            row -= 1
        }
    }

    /// Samples the intervals between knots `emitted` and `end` (Hermite cubics from the slopes).
    private mutating func emitIntervals(upTo end: Int, emit: (Double) -> Void, final: Bool = false) {
        var i = emitted
        while i < end {
            let (t0, t1) = (times[i], times[i + 1])
            let (v0, v1) = (values[i], values[i + 1])
            let h = t1 - t0
            let (s0, s1) = (slopes[i], slopes[i + 1])
            let m = (v1 - v0) / h
            // Coefficients of v0 + s0·u + c2·u² + c3·u³, u = t − t0 (scipy's PPoly form).
            let c2 = (3 * m - 2 * s0 - s1) / h
            let c3 = (s0 + s1 - 2 * m) / (h * h)
            let isLast = final && i + 1 == end
            emitSamples(emit, until: t1, inclusive: isLast) { t in
                let u = t - t0
                return v0 + u * (s0 + u * (c2 + u * c3))
            }
            i += 1
        }
        emitted = end
    }

    /// Emits the samples at times before `limit` (or up to it when `inclusive`), from the spline
    /// piece `value`.
    private mutating func emitSamples(_ emit: (Double) -> Void, until limit: Double, inclusive: Bool, value: (Double) -> Double) {
        // As the grid is counted, ⌊(last − first)·rate + 1e-9⌋ + 1 samples: a sample a hair past
        // the last beat by rounding still counts.
        let position = (limit - origin) * sampleRate
        while inclusive ? Double(nextSample) <= position + 1e-9 : Double(nextSample) < position {
            emit(value(origin + Double(nextSample) / sampleRate))
            nextSample += 1
        }
    }

    /// Drops the knots already sampled.
    private mutating func compact() {
        let keep = emitted
        guard keep > 0 else { return }
        for index in keep..<count {
            times[index - keep] = times[index]
            values[index - keep] = values[index]
            upper[index - keep] = upper[index]
            rhs[index - keep] = rhs[index]
            slopes[index - keep] = slopes[index]
        }
        count -= keep
        emitted -= keep
    }

    private mutating func reset() {
        count = 0
        seen = 0
        nextSample = 0
        emitted = 0
    }
}
