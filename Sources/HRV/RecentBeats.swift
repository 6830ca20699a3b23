/// The heart rate of the last few usable beats: quicker than a 60 s window, for the detector's
/// activity and posture rules.
struct RecentBeats {
    /// Beats in the short heart rate: about two breaths at rest, so RSA mostly averages out.
    static let heartRateBeats = 8

    /// The last `heartRateBeats` intervals, ms, a ring starting at `oldest` once full.
    private var intervals = [Double](repeating: 0, count: heartRateBeats)
    private var count = 0
    private var oldest = 0

    mutating func append(milliseconds: Double) {
        if count < Self.heartRateBeats {
            intervals[count] = milliseconds
            count += 1
        } else {
            intervals[oldest] = milliseconds
            oldest = oldest + 1 == Self.heartRateBeats ? 0 : oldest + 1
        }
    }

    /// Forgets everything: the next beats do not follow these (a gap in the recording).
    mutating func removeAll() {
        count = 0
        oldest = 0
    }

    /// Mean heart rate of the last `heartRateBeats` beats, bpm; nil until there are that many.
    var heartRate: Double? {
        guard count == Self.heartRateBeats else { return nil }
        // Oldest first, as the intervals came.
        let sum = intervals.withUnsafeBufferPointer { ring in
            var sum = 0.0
            for index in oldest..<Self.heartRateBeats { sum += ring[index] }
            for index in 0..<oldest { sum += ring[index] }
            return sum
        }
        return 60_000 * Double(Self.heartRateBeats) / sum
    }
}
