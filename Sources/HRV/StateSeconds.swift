/// Seconds of the beat timeline per state. Added to on every beat, so not a dictionary: a state's
/// hash is its raw string's, and hashing it cost more than the rest of the judge.
public struct StateSeconds: Equatable, Sendable {
    public var rest = 0.0
    public var elevated = 0.0
    public var stress = 0.0
    public var activity = 0.0
    public var recovery = 0.0
    public var pacedBreathing = 0.0
    public var posture = 0.0
    public var unknown = 0.0

    public init() {}

    public subscript(state: StressState) -> Double {
        get {
            switch state {
            case .rest: rest
            case .elevated: elevated
            case .stress: stress
            case .activity: activity
            case .recovery: recovery
            case .pacedBreathing: pacedBreathing
            case .posture: posture
            case .unknown: unknown
            }
        }
        set {
            switch state {
            case .rest: rest = newValue
            case .elevated: elevated = newValue
            case .stress: stress = newValue
            case .activity: activity = newValue
            case .recovery: recovery = newValue
            case .pacedBreathing: pacedBreathing = newValue
            case .posture: posture = newValue
            case .unknown: unknown = newValue
            }
        }
    }
}
