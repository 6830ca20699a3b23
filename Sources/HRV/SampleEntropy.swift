import RealModule

/// Sample entropy (Richman & Moorman 2000) with m = 2 and r = 0.2·SD (sample SD): −ln(A/B), where
/// B counts the pairs of 2-beat templates within r of each other in both beats (Chebyshev
/// distance, no self-matches, each pair once) and A those still within r at the third beat; the
/// N − 2 templates that have a third beat take part (NeuroKit2's `entropy_sample`).
///
/// Counted by sorting the templates by their first beat and comparing each only with those whose
/// first beat lies within r — a fraction of the pairs — instead of all N² pairs.
public enum SampleEntropy {
    public static let dimension = 2
    public static let toleranceFactor = 0.2

    /// Nil with fewer than four intervals, no spread, or no match (A or B zero: undefined).
    /// - Parameters:
    ///   - intervals: NN intervals, ms.
    ///   - order: scratch space for the sort, reused between calls.
    public static func value(of intervals: [Double], order: inout [Int]) -> Double? {
        let n = intervals.count
        guard n > dimension + 1 else { return nil }
        let mean = intervals.reduce(0, +) / Double(n)
        let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        let r = toleranceFactor * variance.squareRoot()
        guard r > 0 else { return nil }
        let templates = n - dimension
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: 0..<templates)
        heapSort(&order) { intervals[$0] < intervals[$1] || (intervals[$0] == intervals[$1] && $0 < $1) }
        var (a, b) = (0, 0)
        intervals.withUnsafeBufferPointer { x in
            order.withUnsafeBufferPointer { order in
                for position in 0..<templates {
                    let i = order[position]
                    let (first, second, third) = (x[i], x[i + 1], x[i + 2])
                    var next = position + 1
                    while next < templates {
                        let j = order[next]
                        next += 1
                        if x[j] - first > r { break }
                        if abs(x[j + 1] - second) > r { continue }
                        b += 1
                        if abs(x[j + 2] - third) <= r { a += 1 }
                    }
                }
            }
        }
        guard a > 0, b > 0 else { return nil }
        return -Double.log(Double(a) / Double(b))
    }
}

/// Sorts in place without allocating (the standard library's sort takes a scratch buffer):
/// heapsort, O(n log n).
func heapSort(_ values: inout [Int], by isOrderedBefore: (Int, Int) -> Bool) {
    values.withUnsafeMutableBufferPointer { values in
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end, isOrderedBefore(values[child], values[child + 1]) { child += 1 }
                guard isOrderedBefore(values[root], values[child]) else { return }
                values.swapAt(root, child)
                root = child
            }
        }
        let count = values.count
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            values.swapAt(0, end)
            siftDown(0, end)
        }
    }
}

/// Sample entropy of a whole recording as the Task Force advises for long ones: over the whole
/// NN series up to an hour, and beyond that the mean over consecutive 5-minute segments (each
/// with its own r; an interval belongs to the segment its start falls in; the last, incomplete
/// segment is left out, and so are segments where it is undefined). Memory: an hour of beats at
/// most.
public struct RecordingSampleEntropy: Equatable, Sendable {
    public static let segmentSeconds = 300.0
    public static let wholeRecordLimit = 3600.0

    private var whole: [Double] = []
    private var segment: [Double] = []
    private var segmentIndex = 0
    private var segmentValues = 0.0
    private var segmentCount = 0
    private var undefinedSegments = 0
    private var end = 0.0
    private var order: [Int] = []

    public init() {}

    /// - Parameters:
    ///   - start: when the interval began, seconds from the recording's start.
    public mutating func add(_ interval: RRInterval, start: Double) {
        let milliseconds = interval.milliseconds
        end = start + interval.seconds
        if start < Self.wholeRecordLimit { whole.append(milliseconds) }
        let index = Int((start / Self.segmentSeconds).rounded(.down))
        if index != segmentIndex {
            closeSegment()
            segmentIndex = index
        }
        segment.append(milliseconds)
    }

    /// The entropy and how it was taken: `segments` is nil for the whole record.
    public mutating func finish() -> (value: Double?, segments: Int?, undefinedSegments: Int) {
        if end <= Self.wholeRecordLimit {
            return (SampleEntropy.value(of: whole, order: &order), nil, 0)
        }
        if end >= Double(segmentIndex + 1) * Self.segmentSeconds { closeSegment() }
        let mean = segmentCount > 0 ? segmentValues / Double(segmentCount) : nil
        return (mean, segmentCount, undefinedSegments)
    }

    private mutating func closeSegment() {
        defer { segment.removeAll(keepingCapacity: true) }
        guard !segment.isEmpty else { return }
        if let value = SampleEntropy.value(of: segment, order: &order) {
            segmentValues += value
            segmentCount += 1
        } else {
            undefinedSegments += 1
        }
    }
}
