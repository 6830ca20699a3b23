/// A double-ended queue in a ring of power-of-two capacity. It grows by doubling when full and
/// never shrinks (`removeAll` keeps the storage), so once a window has held its most beats the
/// queue allocates nothing: a per-beat `append` + `removeFirst` on an `Array` would shift every
/// element, and `removeAll(where:)` or `filter` would copy the window.
struct RingDeque<Element> {
    private var storage: [Element] = []
    /// `storage.count - 1` (0 before the first append): a slot is an offset masked with it.
    private var mask = 0
    /// Storage index of the first element.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var first: Element? { isEmpty ? nil : element(at: head) }
    var last: Element? { isEmpty ? nil : element(at: slot(count &- 1)) }

    /// The element `offset` places from the first.
    subscript(offset: Int) -> Element {
        get {
            precondition(offset >= 0 && offset < count, "RingDeque offset \(offset) out of 0..<\(count)")
            return element(at: slot(offset))
        }
        set {
            precondition(offset >= 0 && offset < count, "RingDeque offset \(offset) out of 0..<\(count)")
            storage[slot(offset)] = newValue
        }
    }

    /// Calls `body` with each of the first `prefix` elements in order: a scan without a
    /// subscript's checks per element.
    func forEach(inFirst prefix: Int, _ body: (Element) -> Void) {
        precondition(prefix >= 0 && prefix <= count, "RingDeque prefix \(prefix) out of 0...\(count)")
        storage.withUnsafeBufferPointer { storage in
            for offset in 0..<prefix { body(storage[(head &+ offset) & mask]) }
        }
    }

    /// Inlined: the posture history appends on every beat, and the call cost as much as the rest.
    @inline(__always)
    mutating func append(_ element: Element) {
        if count == storage.count { grow(filling: element) }
        storage[slot(count)] = element
        count &+= 1
    }

    mutating func prepend(_ element: Element) {
        if count == storage.count { grow(filling: element) }
        head = (head - 1) & mask
        storage[head] = element
        count += 1
    }

    @discardableResult
    mutating func removeFirst() -> Element {
        precondition(!isEmpty, "removeFirst from an empty RingDeque")
        let element = element(at: head)
        head = (head &+ 1) & mask
        count &-= 1
        return element
    }

    @discardableResult
    mutating func removeLast() -> Element {
        precondition(!isEmpty, "removeLast from an empty RingDeque")
        count &-= 1
        return element(at: slot(count))
    }

    /// Empties the queue, keeping its storage.
    mutating func removeAll() {
        head = 0
        count = 0
    }

    private func slot(_ offset: Int) -> Int { (head &+ offset) & mask }

    /// A slot's element without a bounds check: a slot is masked into the storage, whose count is
    /// a power of two once anything was appended (callers check that the queue holds the slot).
    private func element(at slot: Int) -> Element {
        storage.withUnsafeBufferPointer { $0[slot] }
    }

    /// Doubles the storage (at least 8), the elements moved to its start in order; `filler` only
    /// initialises the slots not yet used.
    private mutating func grow(filling filler: Element) {
        var larger = [Element](repeating: filler, count: max(8, storage.count * 2))
        for offset in 0..<count { larger[offset] = storage[slot(offset)] }
        storage = larger
        mask = larger.count - 1
        head = 0
    }
}
