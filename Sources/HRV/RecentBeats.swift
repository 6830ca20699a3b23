/// The last minute of usable beats, for what the detector reads beat by beat: the heart rate of
/// the last few beats (quicker than a 60 s window) and the RR spectrum's breathing peak.
struct RecentBeats {
    /// Seconds kept: one minute, the shortest span that resolves 6/min breathing in a few cycles.
    static let span = 64.0
    /// Beats in the short heart rate: about two breaths at rest, so RSA mostly averages out.
    static let heartRateBeats = 8

    private var times: [Double] = []
    private var intervals: [Double] = []  // ms
    private var first = 0

    mutating func append(time: Double, milliseconds: Double) {
        times.append(time)
        intervals.append(milliseconds)
        while times[first] < time - Self.span { first += 1 }
        // Drop the expired prefix now and then, so appends stay amortised O(1).
        if first > 512 {
            times.removeFirst(first)
            intervals.removeFirst(first)
            first = 0
        }
    }

    /// Forgets everything: the next beats do not follow these (a gap in the recording).
    mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        intervals.removeAll(keepingCapacity: true)
        first = 0
    }

    /// Mean heart rate of the last `heartRateBeats` beats, bpm; nil until there are that many.
    var heartRate: Double? {
        guard times.count - first >= Self.heartRateBeats else { return nil }
        let sum = intervals[(intervals.count - Self.heartRateBeats)...].reduce(0, +)
        return 60_000 * Double(Self.heartRateBeats) / sum
    }

    /// The breathing rhythm of the last minute; nil while it spans less than 50 s.
    var breathing: BreathingEstimate? {
        guard let start = times[first...].first, let end = times.last, end - start >= 50 else { return nil }
        return RRSpectrum(times: Array(times[first...]), intervals: Array(intervals[first...]), band: BreathingEstimate.band)
            .flatMap(BreathingEstimate.init(spectrum:))
    }
}
