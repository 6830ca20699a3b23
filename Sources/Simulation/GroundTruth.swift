/// What really happened in a simulated recording.
public struct GroundTruth: Sendable {
    /// A segment's time span, in seconds since the start: [start, end).
    public struct Span: Sendable, Equatable {
        public var kind: SegmentKind
        public var start: Double
        public var end: Double
        /// What the chest accelerometer feels in it (``SimulatedAccelerometer``).
        public var movement: Movement

        public init(kind: SegmentKind, start: Double, end: Double, movement: Movement = .still) {
            self.kind = kind
            self.start = start
            self.end = end
            self.movement = movement
        }
    }

    /// The spans of `segments`, one each, end to end from 0.
    public static func spans(of segments: [Segment]) -> [Span] {
        var start = 0.0
        return segments.map { segment in
            defer { start += max(segment.duration, 0) }
            return Span(kind: segment.kind, start: start, end: start + max(segment.duration, 0), movement: segment.movement)
        }
    }

    /// Where the body changes posture: into and out of a `standing` segment (standing up,
    /// sitting down). The heart rate's orthostatic response and the accelerometer's movement both
    /// start there.
    public var postureChanges: [Double] {
        zip(spans, spans.dropFirst()).compactMap { ($0.kind == .standing) != ($1.kind == .standing) ? $1.start : nil }
    }

    /// One span per scenario segment, in order, tiling [0, duration].
    /// Spans describe the *commanded* state; the physiology lags behind
    /// each boundary by ~1–2 minutes.
    public var spans: [Span]
    /// Indices into the beat array of every artifact beat, keyed by label.
    /// Every artifact label (all but `.normal`) has an entry, possibly empty.
    public var artifactBeatIndices: [BeatLabel: [Int]]

    public init(spans: [Span], artifactBeatIndices: [BeatLabel: [Int]]) {
        self.spans = spans
        self.artifactBeatIndices = artifactBeatIndices
    }

    /// The kind of segment commanded at `time` seconds, or nil outside the scenario.
    public func kind(at time: Double) -> SegmentKind? {
        guard let last = spans.last, time >= 0, time <= last.end else { return nil }
        for span in spans where time < span.end { return span.kind }
        return last.kind
    }
}
