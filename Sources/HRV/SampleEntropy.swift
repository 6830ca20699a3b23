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

    /// Space a count reuses between calls, so a recording's segments allocate nothing each.
    public struct Scratch: Equatable, Sendable {
        var order: [Int] = []
        /// The templates sorted by their first beat: first, second and third beats in three runs.
        var templates: [Double] = []

        public init() {}
    }

    /// Nil with fewer than four intervals, no spread, or no match (A or B zero: undefined).
    /// - Parameters:
    ///   - intervals: NN intervals, ms.
    public static func value(of intervals: [Double], scratch: inout Scratch) -> Double? {
        let n = intervals.count
        guard n > dimension + 1 else { return nil }
        let mean = intervals.reduce(0, +) / Double(n)
        let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        let r = toleranceFactor * variance.squareRoot()
        guard r > 0 else { return nil }
        let count = n - dimension
        scratch.order.removeAll(keepingCapacity: true)
        scratch.order.append(contentsOf: 0..<count)
        heapSort(&scratch.order) { intervals[$0] < intervals[$1] || (intervals[$0] == intervals[$1] && $0 < $1) }
        scratch.templates.removeAll(keepingCapacity: true)
        scratch.templates.append(contentsOf: repeatElement(0, count: (dimension + 1) * count))
        scratch.order.withUnsafeBufferPointer { order in
            scratch.templates.withUnsafeMutableBufferPointer { templates in
                for beat in 0...dimension {
                    for (position, i) in order.enumerated() { templates[beat * count + position] = intervals[i + beat] }
                }
            }
        }
        var (a, b) = (0, 0)
        scratch.templates.withUnsafeBufferPointer { templates in
            let first = templates.baseAddress!
            let (second, third) = (first + count, first + 2 * count)
            // The templates whose first beat is within r of this one's are the next ones up to
            // `end`, which only moves on as the first beat grows; among them every comparison is
            // counted without a branch.
            var end = 0
            for position in 0..<count {
                let (x1, x2, x3) = (first[position], second[position], third[position])
                end = max(end, position + 1)
                while end < count, !(first[end] - x1 > r) { end += 1 }
                for other in (position + 1)..<end {
                    let near2 = abs(second[other] - x2) <= r ? 1 : 0
                    let near3 = abs(third[other] - x3) <= r ? 1 : 0
                    b &+= near2
                    a &+= near2 & near3
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
    private var scratch = SampleEntropy.Scratch()

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
            return (SampleEntropy.value(of: whole, scratch: &scratch), nil, 0)
        }
        if end >= Double(segmentIndex + 1) * Self.segmentSeconds { closeSegment() }
        let mean = segmentCount > 0 ? segmentValues / Double(segmentCount) : nil
        return (mean, segmentCount, undefinedSegments)
    }

    private mutating func closeSegment() {
        defer { segment.removeAll(keepingCapacity: true) }
        guard !segment.isEmpty else { return }
        if let value = SampleEntropy.value(of: segment, scratch: &scratch) {
            segmentValues += value
            segmentCount += 1
        } else {
            undefinedSegments += 1
        }
    }
}
