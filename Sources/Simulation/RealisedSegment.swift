/// What a simulated segment turned out to be, measured on its normal beats: the targets are
/// steady states the physiology approaches with lags, so this is what a detector really saw.
public struct RealisedSegment: Sendable, Equatable {
    public var kind: SegmentKind
    public var start: Double
    public var end: Double
    /// Mean heart rate of the normal beats, bpm.
    public var heartRate: Double
    /// RMSSD over successive normal-to-normal differences, ms.
    public var rmssd: Double
    /// SDNN over the normal intervals, ms.
    public var sdnn: Double

    /// One value per segment of `truth`; a segment without two adjacent normal beats is left out.
    public static func measure(_ beats: [SimulatedBeat], truth: GroundTruth) -> [RealisedSegment] {
        var intervals = [[Double]](repeating: [], count: truth.spans.count)
        var squaredDifferences = [Double](repeating: 0, count: truth.spans.count)
        var differences = [Int](repeating: 0, count: truth.spans.count)
        var previous: SimulatedBeat?
        for beat in beats {
            defer { previous = beat }
            guard beat.label == .normal else { continue }
            let rr = beat.rrMilliseconds
            intervals[beat.segmentIndex].append(rr)
            if let previous, previous.label == .normal, previous.segmentIndex == beat.segmentIndex {
                let difference = rr - previous.rrMilliseconds
                squaredDifferences[beat.segmentIndex] += difference * difference
                differences[beat.segmentIndex] += 1
            }
        }
        return truth.spans.indices.compactMap { index in
            let nn = intervals[index]
            guard differences[index] > 0, nn.count > 1 else { return nil }
            let mean = nn.reduce(0, +) / Double(nn.count)
            let variance = nn.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(nn.count - 1)
            let span = truth.spans[index]
            return RealisedSegment(
                kind: span.kind, start: span.start, end: span.end, heartRate: 60_000 / mean,
                rmssd: (squaredDifferences[index] / Double(differences[index])).squareRoot(),
                sdnn: variance.squareRoot())
        }
    }
}
