/// The NN tachogram resampled evenly by a cubic spline through the beats, with not-a-knot ends
/// (scipy's `CubicSpline` default, and the Kubios/Task Force method for spectra): knots at the
/// beat times (each interval at the beat that ends it), samples at the first beat's time plus
/// k/`sampleRate`, up to the last beat; nothing extrapolated.
///
/// It streams: the spline's slopes solve a tridiagonal system, whose forward elimination runs
/// beat by beat; a knot's slope depends on knots far ahead only through a factor of about
/// 2 − √3 ≈ 0.27 per knot, so the back substitution starts `lookahead` knots ahead (0.27⁶⁴ is far
/// below a double's precision) and the samples up to there are final. Memory is a few hundred
/// knots whatever the length. Samples are handed on in batches (`emit` receives up to `batch` at
/// once), so the consumer's per-sample work is a plain loop.
struct SplineResampler {
    let sampleRate: Double
    /// Knots beyond the last emitted interval before the back substitution starts.
    static let lookahead = 64
    /// Knots kept: the look-ahead and a batch to emit at once.
    static let capacity = 4 * lookahead
    /// Samples handed on at once, at most.
    static let batch = 256

    /// A knot and what the system for the slopes keeps of it.
    private struct Knot {
        /// Time (s) and value (ms).
        var time = 0.0
        var value = 0.0
        /// To the next knot: its distance (s) and the secant's slope (ms/s), once it has come.
        var width = 0.0
        var secant = 0.0
        /// The forward-eliminated row, normalised by its pivot: slope = rhs − upper·(next slope).
        var upper = 0.0
        var rhs = 0.0
        /// The spline's slope here, once solved for.
        var slope = 0.0
    }

    /// Knots first-in-first-out, `count` of them from the start.
    private var knots: [Knot]
    /// Where samples are gathered to be handed on together.
    private var samples: [Double]
    private var count = 0
    /// Knots seen since the start (the first three set the not-a-knot row).
    private var seen = 0
    private var origin = 0.0
    private var nextSample = 0
    /// Index of the first knot whose interval has not been sampled.
    private var emitted = 0

    init(sampleRate: Double) {
        self.sampleRate = sampleRate
        knots = Array(repeating: Knot(), count: Self.capacity)
        samples = Array(repeating: 0, count: Self.batch)
    }

    /// Adds a knot (times increasing); `emit` receives the samples now final, in order.
    mutating func append(time: Double, value: Double, emit: (UnsafeBufferPointer<Double>) -> Void) {
        if count == Self.capacity { compact() }
        let index = count
        count += 1
        seen += 1
        if seen == 1 { origin = time }
        knots.withUnsafeMutableBufferPointer { knots in
            knots[index].time = time
            knots[index].value = value
            guard index > 0 else { return }
            let width = time - knots[index - 1].time
            knots[index - 1].width = width
            knots[index - 1].secant = (value - knots[index - 1].value) / width
            // Row i of the system needs knots i−1, i, i+1: eliminate the row of the knot before.
            if index >= 2 { Self.eliminate(row: index - 1, in: knots, firstRow: seen == 3) }
        }
        if count - emitted > Self.lookahead + Self.lookahead / 2 {
            solveBack(from: count - 2, exactEnd: false)
            emitIntervals(upTo: count - 1 - Self.lookahead, emit: emit)
        }
    }

    /// Samples the rest, with the not-a-knot condition at the true end; then starts afresh.
    mutating func finish(emit: (UnsafeBufferPointer<Double>) -> Void) {
        defer { reset() }
        guard count > 0 else { return }
        let last = count - 1
        switch seen {
        case 1:
            samples[0] = knots[0].value
            hand(1, to: emit)
        case 2:
            // A straight line through two knots.
            knots[last - 1].slope = knots[last - 1].secant
            knots[last].slope = knots[last - 1].slope
            emitIntervals(upTo: last, emit: emit, final: true)
        case 3:
            // Not-a-knot with three knots is the parabola through them.
            let (t0, t1, t2) = (knots[last - 2].time, knots[last - 1].time, knots[last].time)
            let (d0, d1) = (knots[last - 2].secant, knots[last - 1].secant)
            let curvature = (d1 - d0) / (t2 - t0)
            knots[last - 2].slope = d0 - curvature * (t1 - t0)
            knots[last - 1].slope = d0 + curvature * (t1 - t0)
            knots[last].slope = d1 + curvature * (t2 - t1)
            emitIntervals(upTo: last, emit: emit, final: true)
        default:
            solveBack(from: last, exactEnd: true)
            emitIntervals(upTo: last, emit: emit, final: true)
        }
    }

    // MARK: the system for the slopes (as scipy's CubicSpline sets it up)

    /// Forward elimination of row `i`, a knot with neighbours on both sides; with `firstRow`
    /// (i is the second knot) the first knot's not-a-knot row before it.
    private static func eliminate(row i: Int, in knots: UnsafeMutableBufferPointer<Knot>, firstRow: Bool) {
        let (before, here) = (knots[i - 1], knots[i])
        if firstRow {
            // The first knot's not-a-knot row: dx1·s0 + (t2 − t0)·s1 = b0.
            let d = knots[i + 1].time - before.time
            let b0 = ((before.width + 2 * d) * here.width * before.secant + before.width * before.width * here.secant) / d
            knots[i - 1].upper = d / here.width
            knots[i - 1].rhs = b0 / here.width
        }
        // Interior row: dx(i)·s(i−1) + 2(dx(i−1) + dx(i))·s(i) + dx(i−1)·s(i+1) = 3(dx(i)·m(i−1) + dx(i−1)·m(i))
        let (lower, diagonal, above) = (here.width, 2 * (before.width + here.width), before.width)
        let b = 3 * (here.width * before.secant + before.width * here.secant)
        let pivot = diagonal - lower * knots[i - 1].upper
        knots[i].upper = above / pivot
        knots[i].rhs = (b - lower * knots[i - 1].rhs) / pivot
    }

    /// Back substitution from row `last` down to the first unemitted knot. With `exactEnd` the
    /// last knot's not-a-knot row closes the system; otherwise the slope beyond `last` is taken as
    /// zero, an error that has died out by the knots emitted.
    private mutating func solveBack(from last: Int, exactEnd: Bool) {
        let emitted = emitted
        knots.withUnsafeMutableBufferPointer { knots in
            var row = last
            if exactEnd {
                // The last row, d·s(L−1) + dx(L−2)·s(L) = b with d = t(L) − t(L−2), closed with
                // row L−1 as eliminated: s(L−1) = rhs − upper·s(L).
                let (twoBefore, before) = (knots[last - 2], knots[last - 1])
                let d = knots[last].time - twoBefore.time
                let b = (before.width * before.width * twoBefore.secant + (2 * d + before.width) * twoBefore.width * before.secant) / d
                knots[last].slope = (b - d * before.rhs) / (twoBefore.width - d * before.upper)
                row = last - 1
            } else {
                knots[last + 1].slope = 0
            }
            var next = knots[row + 1].slope
            while row >= emitted {
                next = knots[row].rhs - knots[row].upper * next
                knots[row].slope = next
                row -= 1
            }
        }
    }

    /// Samples the intervals between knots `emitted` and `end` (Hermite cubics from the slopes)
    /// into `samples`, handing them on whenever the batch is full and at the end.
    private mutating func emitIntervals(upTo end: Int, emit: (UnsafeBufferPointer<Double>) -> Void, final: Bool = false) {
        let (origin, sampleRate) = (origin, sampleRate)
        var (next, filled) = (nextSample, 0)
        knots.withUnsafeBufferPointer { knots in
            samples.withUnsafeMutableBufferPointer { samples in
                for i in emitted..<end {
                    let (t0, t1) = (knots[i].time, knots[i + 1].time)
                    let v0 = knots[i].value
                    let h = t1 - t0
                    let (s0, s1) = (knots[i].slope, knots[i + 1].slope)
                    let m = knots[i].secant
                    // Coefficients of v0 + s0·u + c2·u² + c3·u³, u = t − t0 (scipy's PPoly form).
                    let c2 = (3 * m - 2 * s0 - s1) / h
                    let c3 = (s0 + s1 - 2 * m) / (h * h)
                    // As the grid is counted, ⌊(last − first)·rate + 1e-9⌋ + 1 samples: a sample a
                    // hair past the last beat by rounding still counts (≤ a bound is < its next double).
                    let position = (t1 - origin) * sampleRate
                    let bound = final && i + 1 == end ? (position + 1e-9).nextUp : position
                    while Double(next) < bound {
                        let u = origin + Double(next) / sampleRate - t0
                        samples[filled] = v0 + u * (s0 + u * (c2 + u * c3))
                        next &+= 1
                        filled &+= 1
                        if filled == Self.batch {
                            emit(UnsafeBufferPointer(samples))
                            filled = 0
                        }
                    }
                }
            }
        }
        nextSample = next
        emitted = end
        hand(filled, to: emit)
    }

    /// Hands on the first `count` samples gathered, if any.
    private func hand(_ count: Int, to emit: (UnsafeBufferPointer<Double>) -> Void) {
        guard count > 0 else { return }
        samples.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// Drops the knots already sampled.
    private mutating func compact() {
        let keep = emitted
        guard keep > 0 else { return }
        for index in keep..<count { knots[index - keep] = knots[index] }
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
