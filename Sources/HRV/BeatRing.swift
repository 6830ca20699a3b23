/// Fixed-capacity ring of the most recent beats, addressed by a beat's sequence number.
///
/// Memory is fixed at creation whatever the session length; the oldest beat is overwritten.
struct BeatRing {
    /// A beat and the successive difference it ends, worked out once for every window.
    struct Entry {
        var beat: Beat
        /// This interval minus the previous one, in microticks; nil when the two form no
        /// difference (`Beat.formsDifference(after:)`).
        var difference: Int64?
    }

    private var storage: [Entry]
    private let mask: Int
    /// Sequence number the next appended beat gets.
    private(set) var nextSequence = 0

    /// - Parameter minimumCapacity: rounded up to a power of two so indexing is a mask.
    init(minimumCapacity: Int) {
        var capacity = 1
        while capacity < max(minimumCapacity, 2) { capacity <<= 1 }
        storage = Array(repeating: Entry(beat: Beat(interval: RRInterval(microticks: 0), time: 0)), count: capacity)
        mask = capacity - 1
    }

    var capacity: Int { storage.count }
    /// Sequence number of the oldest beat still held.
    var oldestSequence: Int { max(0, nextSequence - storage.count) }
    var isFull: Bool { nextSequence >= storage.count }

    subscript(sequence: Int) -> Entry {
        // oldestSequence ≤ sequence < nextSequence in one comparison: the distance back from the
        // newest beat is below both the beats appended and the capacity.
        precondition(
            UInt(bitPattern: nextSequence &- 1 &- sequence) < UInt(min(nextSequence, storage.count)),
            "beat \(sequence) not in ring")
        return storage[sequence & mask]
    }

    mutating func append(_ beat: Beat, difference: Int64?) {
        storage[nextSequence & mask] = Entry(beat: beat, difference: difference)
        nextSequence += 1
    }
}
