/// Baevsky's stress index of a whole recording (Baevsky & Chernikova 2017): the share of
/// intervals in the most common 50-ms class (AMo, %), over twice that class's centre (Mo, s) times
/// the range of the intervals (MxDMn, s). A narrow, peaked distribution — sympathetic dominance —
/// gives a high index. Kubios reports its square root as "Stress index", to make it closer to
/// normally distributed. Classes are aligned at 0 ms; of equally common classes the shortest is
/// the mode. Counted exactly, beat by beat, without keeping the intervals.
public struct BaevskyStressIndex: Equatable, Sendable {
    /// Class width: 50 ms, in microticks.
    static let classWidth = 50 * RRInterval.microticksPerMillisecond

    /// Intervals per class; grown when a longer interval comes (classes up to 3.2 s, which hold
    /// every heartbeat, are made at once; `analyze --no-correction` passes longer ones too).
    private var counts = [Int](repeating: 0, count: 64)
    private var count = 0
    private var shortest = Int64.max
    private var longest = Int64.min

    public init() {}

    public mutating func add(_ interval: RRInterval) {
        let microticks = interval.microticks
        guard microticks > 0 else { return }
        let index = Int(microticks / Self.classWidth)
        if index >= counts.count { counts += [Int](repeating: 0, count: index + 1 - counts.count) }
        counts[index] &+= 1
        count &+= 1
        shortest = min(shortest, microticks)
        longest = max(longest, microticks)
    }

    /// The index and its square root; nil without intervals or when all are equal (no range).
    public var value: (index: Double, squareRoot: Double)? {
        guard count > 0, longest > shortest else { return nil }
        var modal = 0
        for index in counts.indices where counts[index] > counts[modal] { modal = index }
        let perSecond = Double(RRInterval.microticksPerSecond)
        let mode = (Double(modal) + 0.5) * Double(Self.classWidth) / perSecond
        let amplitudeOfMode = 100 * Double(counts[modal]) / Double(count)
        let range = Double(longest - shortest) / perSecond
        let index = amplitudeOfMode / (2 * mode * range)
        return (index, index.squareRoot())
    }
}
