/// A breathing exercise taken during a session: from its start mark to its stop mark (or the end
/// of the session), with its measured effect when the file has it.
public struct BreathingExercise: Equatable, Sendable {
    /// RR seconds.
    public var start: Double
    public var end: Double
    public var pattern: String
    public var effect: SessionFile.Effect?

    public init(start: Double, end: Double, pattern: String, effect: SessionFile.Effect?) {
        self.start = start
        self.end = end
        self.pattern = pattern
        self.effect = effect
    }

    public static func all(in file: SessionFile, sessionLength: Double) -> [BreathingExercise] {
        var exercises: [BreathingExercise] = []
        for mark in file.exercises {
            switch mark.kind {
            case .started:
                let effect = file.effects.first { abs($0.start - mark.sessionSeconds) < 1e-6 }
                exercises.append(BreathingExercise(start: mark.sessionSeconds, end: sessionLength, pattern: mark.pattern, effect: effect))
            case .stopped:
                if let last = exercises.indices.last { exercises[last].end = mark.sessionSeconds }
            }
        }
        return exercises
    }
}
