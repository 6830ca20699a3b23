/// The largest (or smallest) value of a window that slides along the beat timeline: values enter
/// at the new end and leave by age. A monotonic deque keeps only the values that can still be the
/// extremum (none later and at least as extreme), so both ends move in O(1) amortised time,
/// where taking the maximum of the window's values costs O(window) on every beat.
struct SlidingExtremum {
    enum Kind { case maximum, minimum }

    let kind: Kind
    /// Candidates in time order; their values strictly decreasing (maximum) or increasing (minimum).
    private var candidates = RingDeque<(time: Double, value: Double)>()

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The extremum of the values in the window; nil when it is empty.
    var value: Double? { candidates.first?.value }

    /// Adds the newest value; `time` is not before any earlier one's.
    mutating func append(_ value: Double, at time: Double) {
        while let last = candidates.last, !isMoreExtreme(last.value, than: value) { candidates.removeLast() }
        candidates.append((time, value))
    }

    /// Drops the values from before `cutoff`.
    mutating func removeValues(before cutoff: Double) {
        while let first = candidates.first, first.time < cutoff { candidates.removeFirst() }
    }

    /// Empties the window, keeping its storage.
    mutating func removeAll() {
        candidates.removeAll()
    }

    private func isMoreExtreme(_ value: Double, than other: Double) -> Bool {
        switch kind {
        case .maximum: value > other
        case .minimum: value < other
        }
    }
}
