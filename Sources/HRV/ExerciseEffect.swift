/// The measured effect of one breathing exercise: RMSSD and heart rate in the minute before it,
/// during it, and in the two minutes after, from the corrected beats (exact sums, as the windows);
/// and the coherence of the beats during it.
public struct ExerciseEffect: Equatable, Sendable {
    public var start: Double
    public var end: Double
    public private(set) var before = IntervalStatistics()
    public private(set) var during = IntervalStatistics()
    public private(set) var after = IntervalStatistics()
    public private(set) var coherence = CoherenceMeter()
    /// The last beat seen and the span it fell in: a successive difference is formed only
    /// within one span.
    private var previousBeat: Beat?
    private var previousSpan: Span?

    /// Seconds measured before and after the exercise.
    public static let lead = 60.0
    public static let settle = 120.0

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Feeds every placed beat; beats outside the spans are ignored. `breathingFrequency` (Hz):
    /// the chest's breathing rate, where the coherence reading centres its peak.
    public mutating func observe(_ beat: Beat, breathingFrequency: Double? = nil) {
        let span = span(of: beat.seconds)
        defer { (previousBeat, previousSpan) = (beat, span) }
        // The meter sees every beat of the exercise: an unusable one may carry the gap flag.
        if span == .during { coherence.add(beat, breathingFrequency: breathingFrequency) }
        guard beat.isUsable, let span else { return }
        let predecessor = previousBeat.flatMap { previousSpan == span && beat.formsDifference(after: $0) ? $0 : nil }
        switch span {
        case .before: Self.add(beat, after: predecessor, to: &before)
        case .during: Self.add(beat, after: predecessor, to: &during)
        case .after: Self.add(beat, after: predecessor, to: &after)
        }
    }

    /// Whether the after-span is complete (the recording went on long enough).
    public func isSettled(at time: Double) -> Bool { time >= end + Self.settle }

    /// Time of the newest beat fed, in or out of the spans: where the recording had got to.
    public var observedUntil: Double? { previousBeat?.seconds }

    private enum Span { case before, during, after }

    private func span(of time: Double) -> Span? {
        if time > start - Self.lead && time <= start { return .before }
        if time > start && time <= end { return .during }
        if time > end && time <= end + Self.settle { return .after }
        return nil
    }

    private static func add(_ beat: Beat, after previous: Beat?, to statistics: inout IntervalStatistics) {
        statistics.add(beat.interval)
        if let previous { statistics.addDifference(previous.interval, beat.interval) }
    }
}
