extension DetrendedFluctuation {
    /// Running totals up to a beat k (from 0): Σy and Σk·y modulo 2⁶⁴ and Σy² modulo 2¹²⁸ (the
    /// sums a box takes from them, Σy′, Σj·y′ and Σy′² of its points less its first, are far
    /// smaller).
    struct Totals: Equatable, Sendable {
        var sum: Int64 = 0
        var indexed: Int64 = 0
        var squares: Int128 = 0
        /// The profile value these totals end with, y, whole: a profile drifts by an interval's
        /// difference from the first every beat, and after a long first interval (an hour, with
        /// `--no-correction`) it passes 2⁶³ within weeks of beats.
        var last: Int128 = 0
    }

    /// A scale's boxes: their count and Σ of mean squared residuals (ms²), and its constants.
    struct Scale: Equatable, Sendable {
        var residualSum = 0.0
        var boxes = 0
        /// n, t1 = Σj = n(n − 1)/2, D = n·Σ(j − j̄)² = n²(n² − 1)/12, and D as a double.
        var size: Int64 = 0
        var t1: Int64 = 0
        var d: Int64 = 0
        var spread = 0.0

        init(size n: Int = 0) {
            size = Int64(n)
            t1 = Int64(n * (n - 1) / 2)
            d = Int64(n * n * (n * n - 1) / 12)
            spread = Double(n * n * (n * n - 1)) / 12
        }
    }

    /// The mean squared residual (ms²) from its least-squares line of the box of `scale.size`
    /// points after index `start` up to the totals `after`; `before` are the totals at `start`,
    /// `firstPoint` its first profile value y₀. Nil when it is ≤ 10⁻⁸ ms².
    ///
    /// As the sums of z = y′ − m·j, with y′ = y − y₀, j from the box's start and m a whole-number
    /// slope through the box's first and last points: what is left of a day-long profile's steep
    /// trend, so the residual does not come out of the difference of two numbers ten orders of
    /// magnitude larger than itself. n·Σz² − (Σz)² and n·Σj·z − t1·Σz are, with
    /// A = n·Σy′² − (Σy′)², B = n·Σj·y′ − t1·Σy′ and D = n²(n² − 1)/12, A − 2m·B + m²·D and
    /// B − m·D: exact in wrapping arithmetic as their values fit 128 bits.
    @inline(__always)
    static func boxResidual(_ scale: Scale, start: Int, before: Totals, firstPoint: Int128, after: Totals) -> Double? {
        let size = scale.size
        // Σy′ and Σj·y′ from the totals, exact modulo 2⁶⁴ as they are far smaller, and
        // Σy′² = Σy² − y₀·(2Σy′ + n·y₀) modulo 2¹²⁸.
        let boxSum = after.sum &- before.sum
        let firstPointLow = Int64(truncatingIfNeeded: firstPoint)
        let sum = boxSum &- size &* firstPointLow
        let indexed = (after.indexed &- before.indexed) &- Int64(truncatingIfNeeded: start) &* boxSum &- scale.t1 &* firstPointLow
        let squares = (after.squares &- before.squares)
            &- firstPoint &* (Int128(2 &* sum) &+ Int128(size) &* firstPoint)
        let slope = Int64(truncatingIfNeeded: after.last &- firstPoint).dividedReportingOverflow(by: size &- 1).partialValue
        let (wideSlope, d) = (Int128(slope), Int128(scale.d))
        let a = Int128(size) &* squares &- Int128(sum) &* Int128(sum)
        let b = Int128(size) &* Int128(indexed) &- Int128(scale.t1) &* Int128(sum)
        // n²·Σ(z − z̄)² / n ≥ 0 and n·Σ(j − j̄)(z − z̄); n·Σ(j − j̄)² = n²(n² − 1)/12.
        let u = a &- 2 &* wideSlope &* b &+ wideSlope &* wideSlope &* d
        let v = b &- wideSlope &* d
        // u's double as IntervalStatistics.double rounds it (u ≥ 0: its two halves' doubles added).
        let uDouble = Double(Int64(truncatingIfNeeded: u >> 64)) * 0x1p64 + Double(UInt64(truncatingIfNeeded: u))
        let vDouble = Int64(exactly: v).map { Double($0) } ?? IntervalStatistics.double(v)
        let n = Double(size)
        let squaredResiduals = (uDouble - vDouble * vDouble / scale.spread) / n
        let microticksPerMillisecond = Double(RRInterval.microticksPerMillisecond)
        let meanSquare = squaredResiduals / n / (microticksPerMillisecond * microticksPerMillisecond)
        return meanSquare > 1e-8 ? meanSquare : nil
    }
}
