/// The measured effect of one breathing exercise: RMSSD and heart rate in the minute before it,
/// during it, and in the two minutes after, from the corrected beats (exact sums, as the windows).
public struct ExerciseEffect: Equatable, Sendable {
    public var start: Double
    public var end: Double
    public private(set) var before = IntervalStatistics()
    public private(set) var during = IntervalStatistics()
    public private(set) var after = IntervalStatistics()
    private var previous: Beat?

    /// Seconds measured before and after the exercise.
    public static let lead = 60.0
    public static let settle = 120.0

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Feeds every placed beat; beats outside the spans are ignored.
    public mutating func observe(_ beat: Beat) {
        defer { previous = beat }
        let time = beat.seconds
        guard beat.isUsable else { return }
        let continues = previous.map { beat.formsDifference(after: $0) && span(of: $0.seconds) == span(of: time) } ?? false
        switch span(of: time) {
        case .before: Self.add(beat, after: continues ? previous : nil, to: &before)
        case .during: Self.add(beat, after: continues ? previous : nil, to: &during)
        case .after: Self.add(beat, after: continues ? previous : nil, to: &after)
        case nil: break
        }
    }

    /// Whether the after-span is complete (the recording went on long enough).
    public func isSettled(at time: Double) -> Bool { time >= end + Self.settle }

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
