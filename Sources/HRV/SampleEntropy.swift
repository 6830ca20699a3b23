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
        var milliseconds: [Double] = []
        /// The templates' first beats with their indices, to sort, and the sort's buckets.
        var keys: [SortKey] = []
        var sorted: [SortKey] = []
        var buckets: [Int] = []
        /// The templates sorted by their first beat: first, second and third beats in three runs,
        /// in milliseconds or in microticks from the smallest.
        var templates: [Double] = []
        var wholeTemplates: [Int32] = []

        public init() {}
    }

    /// Nil with fewer than four intervals, no spread, or no match (A or B zero: undefined).
    public static func value(of intervals: [RRInterval], scratch: inout Scratch) -> Double? {
        let n = intervals.count
        guard n > dimension + 1 else { return nil }
        scratch.milliseconds.removeAll(keepingCapacity: true)
        for interval in intervals { scratch.milliseconds.append(interval.milliseconds) }
        let milliseconds = scratch.milliseconds
        let mean = milliseconds.reduce(0, +) / Double(n)
        let variance = milliseconds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)
        let r = toleranceFactor * variance.squareRoot()
        guard r > 0 else { return nil }
        let count = n - dimension
        scratch.keys.removeAll(keepingCapacity: true)
        for index in 0..<count { scratch.keys.append(SortKey(value: milliseconds[index], index: index)) }
        scratch.sorted.removeAll(keepingCapacity: true)
        scratch.sorted.append(contentsOf: scratch.keys)
        scratch.buckets.removeAll(keepingCapacity: true)
        scratch.buckets.append(contentsOf: repeatElement(0, count: count + 1))
        scratch.keys.withUnsafeMutableBufferPointer { keys in
            scratch.sorted.withUnsafeMutableBufferPointer { sorted in
                scratch.buckets.withUnsafeMutableBufferPointer { bucketSort(keys, into: sorted, buckets: $0) }
            }
        }
        let (a, b) = wholeNumberMatches(of: intervals, sorted: scratch.sorted, within: r, templates: &scratch.wholeTemplates)
            ?? matches(of: milliseconds, sorted: scratch.sorted, within: r, templates: &scratch.templates)
        guard a > 0, b > 0 else { return nil }
        return -Double.log(Double(a) / Double(b))
    }

    /// A and B of the templates in `sorted` order (by their first beat).
    private static func matches(of milliseconds: [Double], sorted: [SortKey], within r: Double, templates: inout [Double]) -> (a: Int, b: Int) {
        let count = sorted.count
        templates.removeAll(keepingCapacity: true)
        templates.append(contentsOf: repeatElement(0, count: (dimension + 1) * count))
        templates.withUnsafeMutableBufferPointer { templates in
            for (position, key) in sorted.enumerated() {
                templates[position] = milliseconds[key.index]
                templates[count + position] = milliseconds[key.index + 1]
                templates[2 * count + position] = milliseconds[key.index + 2]
            }
        }
        return templates.withUnsafeBufferPointer { matches(in: $0.baseAddress!, count: count, within: r) }
    }

    /// A and B over `count` templates sorted by their first beat (three runs from `first`).
    private static func matches(in first: UnsafePointer<Double>, count: Int, within r: Double) -> (a: Int, b: Int) {
        let (second, third) = (first + count, first + 2 * count)
        var (a, b) = (0, 0)
        // The templates whose first beat is within r of this one's are the next ones up to `end`,
        // which only moves on as the first beat grows; among them every comparison is counted
        // without a branch.
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
        return (a, b)
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

    private var whole: [RRInterval] = []
    private var segment: [RRInterval] = []
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
        end = start + interval.seconds
        if start < Self.wholeRecordLimit { whole.append(interval) }
        // Truncation is the floor from 0 on, without a call.
        let quotient = start / Self.segmentSeconds
        let index = quotient >= 0 ? Int(quotient) : Int(quotient.rounded(.down))
        if index != segmentIndex {
            closeSegment()
            segmentIndex = index
        }
        segment.append(interval)
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
