/// Quantiles of the last `capacity` values pushed, kept sorted so a quantile is O(1) and an
/// update is one binary search and one short shift. Fixed storage: no allocation after init.
struct SlidingQuantiles {
    private var arrival: [Double]
    private var sorted: [Double]
    private var next = 0
    private(set) var count = 0

    init(capacity: Int) {
        arrival = Array(repeating: 0, count: capacity)
        sorted = Array(repeating: 0, count: capacity)
        sorted.removeAll(keepingCapacity: true)
    }

    var capacity: Int { arrival.count }

    mutating func push(_ value: Double) {
        if count == capacity {
            let leaving = arrival[next]
            sorted.remove(at: insertionIndex(of: leaving))
        } else {
            count += 1
        }
        arrival[next] = value
        next = (next + 1) % capacity
        sorted.insert(value, at: insertionIndex(of: value))
    }

    mutating func removeAll() {
        sorted.removeAll(keepingCapacity: true)
        count = 0
        next = 0
    }

    /// Linear interpolation between closest ranks (pandas' and numpy's default). Nil when empty.
    func quantile(_ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position)
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + fraction * (sorted[upper] - sorted[lower])
    }

    /// First index whose value is not less than `value`.
    private func insertionIndex(of value: Double) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
