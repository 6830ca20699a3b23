/// The start or end of a breathing exercise the user took during the session.
public struct ExerciseMark: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case started, stopped
    }

    public var kind: Kind
    /// The pattern's name (resonance, box, 4-7-8, or IN-HOLD-OUT seconds).
    public var pattern: String
    /// Wall-clock time (Unix seconds).
    public var time: Double
    /// Position on the session's RR timeline, the clock effects are measured on.
    public var sessionSeconds: Double

    public init(kind: Kind, pattern: String, time: Double, sessionSeconds: Double) {
        self.kind = kind
        self.pattern = pattern
        self.time = time
        self.sessionSeconds = sessionSeconds
    }
}
