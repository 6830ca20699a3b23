/// A span of sustained stress or of physical activity, in seconds of the beat timeline.
public struct StressEpisode: Equatable, Sendable {
    public enum Kind: String, Sendable, Codable {
        case stress, activity
    }

    public var kind: Kind
    /// When the condition began (stress episodes are declared only after it has lasted, and then
    /// dated back to here).
    public var start: Double
    public var end: Double
    /// Highest stress level seen in the episode; nil for activity.
    public var peakLevel: Double?
    /// What the stress rule saw when the episode was declared; nil for activity.
    public var reason: StressReason?

    public init(kind: Kind, start: Double, end: Double, peakLevel: Double? = nil, reason: StressReason? = nil) {
        self.kind = kind
        self.start = start
        self.end = end
        self.peakLevel = peakLevel
        self.reason = reason
    }

    public var duration: Double { end - start }
}

extension Collection<StressEpisode> {
    /// Seconds of stress in these episodes.
    public var stressSeconds: Double { filter { $0.kind == .stress }.reduce(0) { $0 + $1.duration } }
}
