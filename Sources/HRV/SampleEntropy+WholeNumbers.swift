extension SampleEntropy {
    /// A and B counted on the intervals' whole microticks, four comparisons at a time in 32-bit
    /// lanes, with the same outcome as every comparison of milliseconds |a − b| ≤ r; nil where
    /// that is not certain (the caller then compares the milliseconds).
    ///
    /// Why the same: a = A/c rounded (A microticks, c per millisecond), so a − b as computed lies
    /// within 2 units in the last place of the largest value of (A − B)/c. Whole differences
    /// D = A − B are 1 apart, so with e that error in microticks and t = r·c, |D| ≤ t − e is
    /// certainly within r and |D| > t + e certainly not; when no whole number lies between the
    /// two (all but a chance of about 2e in one), "within" is |D| ≤ ⌊t − e⌋ exactly. The
    /// differences fit 32 bits when the values span less than 2³¹ microticks (2.1 s).
    static func wholeNumberMatches(of intervals: [RRInterval], sorted: [SortKey], within r: Double, templates: inout [Int32]) -> (a: Int, b: Int)? {
        guard let lowest = intervals.min()?.microticks, let highest = intervals.max()?.microticks,
            highest - lowest < Int64(Int32.max)
        else { return nil }
        let perMillisecond = Double(RRInterval.microticksPerMillisecond)
        let t = r * perMillisecond
        // The error of a computed difference, and of t and of the bounds themselves, generously.
        let largest = max(RRInterval(microticks: lowest).milliseconds.magnitude, RRInterval(microticks: highest).milliseconds.magnitude)
        let margin = 2 * perMillisecond * largest.ulp + 4 * t.ulp
        let (below, above) = ((t - margin).rounded(.down), (t + margin).rounded(.down))
        guard below >= 0, below == above, below < Double(Int32.max) else { return nil }
        let within = Int32(below)
        // Three runs (first, second and third beats), each followed by three lanes' worth of
        // padding, so a block of four may run past a run's end.
        let count = sorted.count
        let run = count + 3
        templates.removeAll(keepingCapacity: true)
        templates.append(contentsOf: repeatElement(0, count: 3 * run))
        templates.withUnsafeMutableBufferPointer { templates in
            for (position, key) in sorted.enumerated() {
                for beat in 0...dimension {
                    templates[beat * run + position] = Int32(truncatingIfNeeded: intervals[key.index + beat].microticks - lowest)
                }
            }
        }
        return templates.withUnsafeBufferPointer { wholeNumberMatches(in: $0.baseAddress!, count: count, run: run, within: within) }
    }

    /// A and B over `count` templates sorted by their first beat, in three runs `run` apart from
    /// `first`; `within` is the largest difference within r.
    private static func wholeNumberMatches(in first: UnsafePointer<Int32>, count: Int, run: Int, within: Int32) -> (a: Int, b: Int) {
        let (second, third) = (first + run, first + 2 * run)
        let (limit, negativeLimit) = (Lanes(repeating: within), Lanes(repeating: -within))
        let lane = Lanes(0, 1, 2, 3)
        // Per lane, over all templates: lanes compared, and those not within r in the second
        // beat, or in the second or third (32-bit lanes, added up before they could overflow).
        var (compared, farSecond, farEither) = (0, 0, 0)
        var (laneFarSecond, laneFarEither) = (Lanes(), Lanes())
        let flushEvery = max(1, (1 << 29) / max(count, 1))
        // The templates whose first beat is within r of this one's are the next ones up to `end`,
        // which only moves on as the first beat grows.
        var end = 0
        for position in 0..<count {
            let x1 = first[position]
            end = max(end, position + 1)
            while end < count, first[end] &- x1 <= within { end += 1 }
            let (center2, center3) = (Lanes(repeating: second[position]), Lanes(repeating: third[position]))
            var other = position + 1
            while other &+ 4 <= end {
                let far2 = isFar(Lanes.load(second + other) &- center2, limit, negativeLimit)
                let far3 = isFar(Lanes.load(third + other) &- center3, limit, negativeLimit)
                laneFarSecond &+= Lanes(repeating: 0).replacing(with: 1, where: far2)
                laneFarEither &+= Lanes(repeating: 0).replacing(with: 1, where: far2 .| far3)
                other &+= 4
            }
            if other < end {
                // The last, partial block: its lanes past the end count as far in both.
                let outside = lane .>= Lanes(repeating: Int32(truncatingIfNeeded: end &- other))
                let far2 = isFar(Lanes.load(second + other) &- center2, limit, negativeLimit) .| outside
                let far3 = isFar(Lanes.load(third + other) &- center3, limit, negativeLimit)
                laneFarSecond &+= Lanes(repeating: 0).replacing(with: 1, where: far2)
                laneFarEither &+= Lanes(repeating: 0).replacing(with: 1, where: far2 .| far3)
                other &+= 4
            }
            compared &+= other &- (position &+ 1)
            if position % flushEvery == flushEvery - 1 || position == count - 1 {
                farSecond &+= Int(laneFarSecond.wrappedSum())
                farEither &+= Int(laneFarEither.wrappedSum())
                (laneFarSecond, laneFarEither) = (Lanes(), Lanes())
            }
        }
        return (compared - farEither, compared - farSecond)
    }

    /// Per lane, |d| > limit.
    @inline(__always)
    private static func isFar(_ d: Lanes, _ limit: Lanes, _ negativeLimit: Lanes) -> SIMDMask<Lanes> {
        (d .> limit) .| (d .< negativeLimit)
    }
}

private typealias Lanes = SIMD4<Int32>

extension SIMD4<Int32> {
    fileprivate static func load(_ pointer: UnsafePointer<Int32>) -> Self {
        UnsafeRawPointer(pointer).loadUnaligned(as: Self.self)
    }
}
