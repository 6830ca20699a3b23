/// The beats of the last `length` of the timeline: a beat belongs to the window when its time is
/// later than (newest beat time − length).
///
/// The window keeps only where it starts. Its sums are the recording's running totals minus the
/// totals the ring holds for its oldest beat (exact: every sum is an integer), so a beat costs a
/// comparison of times, not the addition and removal of its sums in every window.
struct RollingWindow {
    let length: Int64
    /// Sequence number of the oldest beat in the window.
    private(set) var oldest = 0

    init(length: Int64) {
        self.length = length
    }

    /// Moves the start past the beats now too old, and past those the ring no longer holds (a run
    /// faster than the ring was sized for shortens the window). Forced inline into the pipeline's
    /// two calls: the call with its spills cost more than the comparisons.
    @inline(__always)
    mutating func advance(to newest: Beat, in ring: BeatRing) {
        oldest = max(oldest, ring.oldestSequence)
        let cutoff = newest.time - length
        while oldest < ring.nextSequence, ring[oldest].beat.time <= cutoff { oldest += 1 }
    }

    /// The window's sums and corrected beats, from the recording's totals after the newest beat.
    @inline(__always)
    func contents(of ring: BeatRing, totals: RecordingTotals) -> (statistics: IntervalStatistics, correctedBeats: Int) {
        guard oldest < ring.nextSequence else { return (IntervalStatistics(), 0) }
        let start = ring[oldest]
        return (totals.statistics.subtracting(start.windowStart), totals.correctedBeats - start.correctedBefore)
    }
}
