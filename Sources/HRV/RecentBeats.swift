/// The heart rate of the last few usable beats: quicker than a 60 s window, for the detector's
/// activity and posture rules.
struct RecentBeats {
    /// Beats in the short heart rate: about two breaths at rest, so RSA mostly averages out.
    static let heartRateBeats = SIMD8<Double>.scalarCount

    /// The last `heartRateBeats` intervals, ms, oldest first once there are that many. Eight lanes
    /// shifted on each beat (four register moves): no ring index, and no array to check for
    /// uniqueness on every beat.
    private var intervals = SIMD8<Double>()
    private var count = 0

    mutating func append(milliseconds: Double) {
        let last = intervals
        intervals = SIMD8(last[1], last[2], last[3], last[4], last[5], last[6], last[7], milliseconds)
        count = min(count + 1, Self.heartRateBeats)
    }

    /// Forgets everything: the next beats do not follow these (a gap in the recording).
    mutating func removeAll() {
        count = 0
    }

    /// Mean heart rate of the last `heartRateBeats` beats, bpm; nil until there are that many.
    /// Inlined: a call passed the eight lanes through the stack.
    @inline(__always)
    var heartRate: Double? {
        guard count == Self.heartRateBeats else { return nil }
        // Oldest first, as the intervals came.
        let v = intervals
        let sum = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7]
        return 60_000 * Double(Self.heartRateBeats) / sum
    }
}
