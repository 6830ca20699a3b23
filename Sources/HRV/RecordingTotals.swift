/// Whole-recording accumulation of the corrected timeline, for `analyze`-style summaries.
public struct RecordingTotals: Equatable, Sendable {
    /// Intervals fed in, before correction.
    public internal(set) var rawBeats = 0
    /// Intervals on the corrected timeline (extra beats merged, missed beats inserted).
    public private(set) var beats = 0
    /// Of the usable beats (implausible ones are left out, not corrected), those changed or
    /// created by correction — as the rolling windows count them.
    public private(set) var correctedBeats = 0
    /// Timeline length in microticks.
    public private(set) var duration: Int64 = 0
    public private(set) var statistics = IntervalStatistics()
    /// Sums of RRᵢ + RRᵢ₊₁ over the successive pairs, for the Poincaré long axis (SD2). Only the
    /// whole recording keeps them: rolling windows would pay a 128-bit square per beat for a
    /// metric nobody watches live.
    private var sumOfPairs: Int64 = 0
    private var sumOfSquaredPairs: Int128 = 0

    /// Adds a beat; returns the ring's entry for it, with the totals a rolling window starting at
    /// this beat leaves out (`BeatRing.Entry.windowStart`): taken after the beat's difference
    /// and before its interval. Inlined into the pipeline's per-beat path.
    ///
    /// - Parameter difference: the successive difference `beat` ends (nil when it forms none).
    @inline(__always)
    mutating func add(_ beat: Beat, difference: Int64?) -> BeatRing.Entry {
        beats += 1
        duration = beat.time
        guard beat.isUsable else {
            return BeatRing.Entry(beat: beat, windowStart: statistics, correctedBefore: correctedBeats)
        }
        if let difference {
            statistics.add(difference: difference)
            // RRᵢ₋₁ + RRᵢ = 2·RRᵢ − (RRᵢ − RRᵢ₋₁)
            let pair = 2 * beat.interval.microticks - difference
            sumOfPairs += pair
            sumOfSquaredPairs += Int128(pair) * Int128(pair)
        }
        let entry = BeatRing.Entry(beat: beat, windowStart: statistics, correctedBefore: correctedBeats)
        if beat.isCorrected { correctedBeats += 1 }
        statistics.add(beat.interval)
        return entry
    }

    /// Metrics of the whole recording, with the Poincaré long axis (SD2) that windows leave out.
    public var metrics: TimeDomainMetrics? {
        guard var metrics = statistics.metrics else { return nil }
        metrics.sd2 = IntervalStatistics.sampleStandardDeviation(
            count: statistics.differenceCount, sum: sumOfPairs, sumOfSquares: sumOfSquaredPairs
        ).map { $0 / Double(RRInterval.microticksPerMillisecond) / 2.0.squareRoot() }
        return metrics
    }

    /// Share of usable beats changed by correction, in percent.
    public var correctedPercent: Double {
        statistics.count > 0 ? 100 * Double(correctedBeats) / Double(statistics.count) : 0
    }
    public var durationSeconds: Double { Double(duration) / Double(RRInterval.microticksPerSecond) }
}
