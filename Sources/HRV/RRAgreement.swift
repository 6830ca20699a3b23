/// How well the strap's own beats (its RR, from its own R-peak detection) agree with the R peaks
/// found in its ECG: a check of the RR that every metric rests on.
///
/// The two series are on clocks that differ by a constant (a beat's time is when its notification
/// came, an R peak's when its sample was taken): `offset`, the most common difference of a beat's
/// time and an R peak's within two seconds of it, is taken off first. Each beat is then paired
/// with the nearest unpaired R peak within `tolerance`, in time order; only the time both series
/// cover is compared (the ECG starts later and may stop earlier). An RR of the strap is compared
/// with the peaks' when both its beats are paired with consecutive peaks.
public struct RRAgreement: Equatable, Sendable {
    /// A beat of the strap: its time (seconds) and the RR that ends at it (ms), as it sent it.
    public struct Beat: Equatable, Sendable {
        public var time: Double
        public var milliseconds: Double

        public init(time: Double, milliseconds: Double) {
            self.time = time
            self.milliseconds = milliseconds
        }
    }

    /// Beats that fell in the time both series cover.
    public var beats: Int
    /// R peaks that fell in it.
    public var peaks: Int
    public var matched: Int
    public var beatsWithoutPeak: Int { beats - matched }
    public var peaksWithoutBeat: Int { peaks - matched }
    /// Share of the beats with an R peak, in percent (nil without beats).
    public var matchedPercent: Double? { beats > 0 ? 100 * Double(matched) / Double(beats) : nil }
    /// The strap's RR against the peaks', |difference| in ms: median and 95th percentile (nil: none compared).
    public var medianRRDifference: Double?
    public var rrDifference95: Double?
    /// RR intervals compared.
    public var intervals: Int
    /// A beat's time minus its R peak's, seconds (nil: no offset found).
    public var offset: Double?

    /// How far a beat may be from its R peak once the offset is taken off.
    public static let defaultTolerance = 0.1
    /// The farthest offset looked for.
    static let largestOffset = 2.0
    /// The width of the window in which the offset's differences are counted.
    static let offsetWindow = 0.04

    /// `beats` and `peaks` in time order.
    public init(beats: [Beat], peaks: [RPeak], tolerance: Double = defaultTolerance) {
        let offset = Self.offset(beats: beats.map(\.time), peaks: peaks.map(\.time))
        self.offset = offset
        let shift = offset ?? 0
        let start = max(beats.first.map { $0.time - shift } ?? 0, peaks.first?.time ?? 0) - tolerance
        let end = min(beats.last.map { $0.time - shift } ?? 0, peaks.last?.time ?? 0) + tolerance
        let common = start <= end && !beats.isEmpty && !peaks.isEmpty ? start...end : nil
        let beatIndices = beats.indices.filter { common?.contains(beats[$0].time - shift) == true }
        let peakTimes = peaks.map(\.time)
        let peakIndices = peakTimes.indices.filter { common?.contains(peakTimes[$0]) == true }
        self.beats = beatIndices.count
        self.peaks = peakIndices.count

        // Pairs (beat, peak), nearest first, each side used once.
        var pairs: [Int: Int] = [:]
        var taken = Set<Int>()
        var next = peakIndices.startIndex
        for beat in beatIndices {
            let time = beats[beat].time - shift
            while next < peakIndices.endIndex, peakTimes[peakIndices[next]] < time - tolerance { next += 1 }
            var best: Int?
            var index = next
            while index < peakIndices.endIndex, peakTimes[peakIndices[index]] <= time + tolerance {
                let peak = peakIndices[index]
                if !taken.contains(peak), best.map({ abs(peakTimes[peak] - time) < abs(peakTimes[$0] - time) }) ?? true { best = peak }
                index += 1
            }
            if let best {
                pairs[beat] = best
                taken.insert(best)
            }
        }
        matched = pairs.count

        var differences: [Double] = []
        for beat in beatIndices where beat > 0 {
            guard let peak = pairs[beat], let previous = pairs[beat - 1], peak == previous + 1 else { continue }
            differences.append(abs(beats[beat].milliseconds - 1000 * (peakTimes[peak] - peakTimes[previous])))
        }
        differences.sort()
        intervals = differences.count
        medianRRDifference = Self.quantile(differences, 0.5)
        rrDifference95 = Self.quantile(differences, 0.95)
    }

    /// The difference (beat − peak) most beats share: the centre of the narrowest-window densest
    /// cluster of all differences within `largestOffset`, the one nearest zero of equal ones.
    static func offset(beats: [Double], peaks: [Double]) -> Double? {
        var differences: [Double] = []
        var first = 0
        for beat in beats {
            while first < peaks.count, peaks[first] < beat - largestOffset { first += 1 }
            var index = first
            while index < peaks.count, peaks[index] <= beat + largestOffset {
                differences.append(beat - peaks[index])
                index += 1
            }
        }
        differences.sort()
        var best: (count: Int, low: Int, high: Int)?
        var low = 0
        for high in differences.indices {
            while differences[high] - differences[low] > offsetWindow { low += 1 }
            let count = high - low + 1
            let nearer = best.map { abs(differences[low] + differences[high]) < abs(differences[$0.low] + differences[$0.high]) }
            if best.map({ count > $0.count }) ?? true || (best?.count == count && nearer == true) { best = (count, low, high) }
        }
        return best.flatMap { quantile(Array(differences[$0.low...$0.high]), 0.5) }
    }

    /// The `q` quantile of sorted `values`, linear between neighbours.
    static func quantile(_ values: [Double], _ q: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let position = q * Double(values.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, values.count - 1)
        return values[lower] + (values[upper] - values[lower]) * (position - Double(lower))
    }
}
