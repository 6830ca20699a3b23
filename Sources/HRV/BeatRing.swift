/// Fixed-capacity ring of the most recent beats, addressed by a beat's sequence number.
///
/// Memory is fixed at creation whatever the session length; the oldest beat is overwritten.
struct BeatRing {
    /// A beat and the recording's running totals where a window starting at it begins.
    struct Entry {
        var beat: Beat
        /// What a window whose oldest beat is this one leaves out of the recording's totals: the
        /// intervals before this beat and the successive differences up to and including its own
        /// (its difference is to a beat outside the window).
        var windowStart: IntervalStatistics
        /// Corrected usable beats before this one.
        var correctedBefore: Int
    }

    private var storage: [Entry]
    private let mask: Int
    /// Sequence number the next appended beat gets.
    private(set) var nextSequence = 0

    /// - Parameter minimumCapacity: rounded up to a power of two so indexing is a mask.
    init(minimumCapacity: Int) {
        var capacity = 1
        while capacity < max(minimumCapacity, 2) { capacity <<= 1 }
        let empty = Entry(beat: Beat(interval: RRInterval(microticks: 0), time: 0), windowStart: IntervalStatistics(), correctedBefore: 0)
        storage = Array(repeating: empty, count: capacity)
        mask = capacity - 1
    }

    /// Sequence number of the oldest beat still held.
    var oldestSequence: Int { max(0, nextSequence - storage.count) }

    subscript(sequence: Int) -> Entry {
        // oldestSequence ≤ sequence < nextSequence in one comparison: the distance back from the
        // newest beat is below both the beats appended and the capacity.
        precondition(
            UInt(bitPattern: nextSequence &- 1 &- sequence) < UInt(min(nextSequence, storage.count)),
            "beat \(sequence) not in ring")
        return storage[sequence & mask]
    }

    mutating func append(_ entry: Entry) {
        storage[nextSequence & mask] = entry
        nextSequence += 1
    }
}
