/// Fixed-capacity ring of the most recent beats, addressed by a beat's sequence number.
///
/// Memory is fixed at creation whatever the session length; the oldest beat is overwritten.
struct BeatRing {
    private var storage: [Beat]
    private let mask: Int
    /// Sequence number the next appended beat gets.
    private(set) var nextSequence = 0

    /// - Parameter minimumCapacity: rounded up to a power of two so indexing is a mask.
    init(minimumCapacity: Int) {
        var capacity = 1
        while capacity < max(minimumCapacity, 2) { capacity <<= 1 }
        storage = Array(repeating: Beat(interval: RRInterval(microticks: 0), time: 0), count: capacity)
        mask = capacity - 1
    }

    var capacity: Int { storage.count }
    /// Sequence number of the oldest beat still held.
    var oldestSequence: Int { max(0, nextSequence - storage.count) }
    var isFull: Bool { nextSequence >= storage.count }

    subscript(sequence: Int) -> Beat {
        precondition(sequence >= oldestSequence && sequence < nextSequence, "beat \(sequence) not in ring")
        return storage[sequence & mask]
    }

    mutating func append(_ beat: Beat) {
        storage[nextSequence & mask] = beat
        nextSequence += 1
    }
}
