/// Metrics over the beats of the last `length` of the timeline, updated in O(1) amortised per beat.
///
/// A beat belongs to the window when its time is later than (newest beat time − length). The
/// window only keeps the sequence range it covers; the beats live in the shared `BeatRing`.
struct RollingWindow {
    let length: Int64
    private(set) var statistics = IntervalStatistics()
    private(set) var correctedBeats = 0
    /// Sequence numbers covered: `oldest ..< end`.
    private(set) var oldest = 0
    private(set) var end = 0

    init(length: Int64) {
        self.length = length
    }

    /// Forced inline into the pipeline's two calls: the call with its spills cost more than a
    /// beat's sums.
    @inline(__always)
    mutating func admit(_ sequence: Int, from ring: BeatRing) {
        let entry = ring[sequence]
        if entry.beat.isUsable {
            statistics.add(entry.beat.interval)
            if entry.beat.isCorrected { correctedBeats += 1 }
        }
        // The difference to the previous beat counts while that beat is in the window.
        if sequence > oldest, let difference = entry.difference {
            statistics.add(difference: difference)
        }
        end = sequence + 1
        let cutoff = entry.beat.time - length
        while oldest < end, ring[oldest].beat.time <= cutoff { evictOldest(from: ring) }
    }

    /// Drops the oldest beat, also when the ring is about to overwrite it. Inlined like `admit`:
    /// about one beat leaves each window per beat.
    @inline(__always)
    mutating func evictOldest(from ring: BeatRing) {
        let beat = ring[oldest].beat
        if beat.isUsable {
            statistics.remove(beat.interval)
            if beat.isCorrected { correctedBeats -= 1 }
        }
        if oldest + 1 < end, let difference = ring[oldest + 1].difference {
            statistics.remove(difference: difference)
        }
        oldest += 1
    }

    var beatCount: Int { end - oldest }
}
