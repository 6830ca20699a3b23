/// What really happened in a simulated recording.
public struct GroundTruth: Sendable {
    /// A segment's time span, in seconds since the start: [start, end).
    public struct Span: Sendable, Equatable {
        public var kind: SegmentKind
        public var start: Double
        public var end: Double

        public init(kind: SegmentKind, start: Double, end: Double) {
            self.kind = kind
            self.start = start
            self.end = end
        }
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
