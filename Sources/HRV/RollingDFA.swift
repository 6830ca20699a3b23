/// DFA α1 of the last two minutes of beats, live: what runners read their aerobic threshold from
/// (α1 ≈ 0.75 at the first ventilatory threshold, falling towards 0.5 with intensity; Rogers et
/// al. 2021, Gronwald et al. 2020, who use 2-minute windows). The same definition as the whole
/// recording's α1 (``DetrendedFluctuation``: non-overlapping boxes of 4–16 beats from the
/// window's first beat), recomputed over the window when asked — a few hundred beats.
public struct RollingDFA {
    /// Window length, seconds.
    public static let window = 120.0

    private var beats = RingDeque<(time: Double, interval: RRInterval)>()
    /// When the beats since the last gap began (the start of the first one's interval).
    private var start: Double?
    private var scratch = DetrendedFluctuation()

    public init() {}

    /// A beat of the corrected timeline; implausible ones are left out, a gap starts afresh.
    public mutating func add(_ beat: Beat) {
        if beat.followsGap {
            beats.removeAll()
            start = nil
        }
        guard beat.isUsable else { return }
        let time = beat.seconds
        if start == nil { start = time - beat.interval.seconds }
        beats.append((time, beat.interval))
        // A beat is in the window when its interval ended within it.
        while let first = beats.first, first.time <= time - Self.window { _ = beats.removeFirst() }
    }

    /// α1 of the window; nil until beats have covered a whole window since the start or a gap.
    public mutating func alpha1() -> Double? {
        guard let start, let newest = beats.last, newest.time - start >= Self.window else { return nil }
        scratch.removeAll()
        for offset in 0..<beats.count { scratch.add(beats[offset].interval) }
        return scratch.alphas.short
    }
}
