/// Suggests a breathing exercise when a stress episode starts: with its reason, at most once per
/// cool-down, with one short stress-relief tip.
public struct BreathingCoach {
    public struct Suggestion: Equatable, Sendable {
        /// Beat time of the suggestion, seconds.
        public var time: Double
        /// Why, in numbers: "RMSSD 28 ms, 36 % below your reference of 44 ms; heart rate +8 bpm;
        /// breathing 18/min, for 1 min".
        public var reason: String
        public var pattern: BreathingPattern
        public var minutes: Double
        public var tip: String
    }

    /// Built-in tips; the configuration file adds the user's own.
    public static let builtInTips = [
        "Lengthen each exhale: a slow out-breath is the quickest brake on your heart rate.",
        "Drop your shoulders and unclench your jaw.",
        "Look away from the screen at something far away for a minute.",
        "Stand up and walk for two minutes.",
        "Drink a glass of water.",
        "Name five things you can see and four you can hear.",
        "Write down the one thing on your mind, then come back to it later.",
    ]

    public let pattern: BreathingPattern
    public let minutes: Double
    public let cooldown: Double
    public let tips: [String]
    private var lastSuggestion: Double?
    private var suggestions = 0

    public init(pattern: BreathingPattern = .resonance(), minutes: Double = 5, cooldown: Double = 1200, extraTips: [String] = []) {
        self.pattern = pattern
        self.minutes = minutes
        self.cooldown = cooldown
        tips = Self.builtInTips + extraTips
    }

    /// A suggestion when `assessment` declares a stress episode and the cool-down has passed.
    public mutating func consider(_ assessment: StressAssessment, at time: Double) -> Suggestion? {
        guard let episode = assessment.episodeStarted, let why = episode.reason,
              lastSuggestion.map({ time - $0 >= cooldown }) ?? true
        else { return nil }
        lastSuggestion = time
        let minutes = max(1, Int(((time - episode.start) / 60).rounded()))
        let reason = "\(why.description), for \(minutes) min"
        // Tips rotate so a long day does not repeat the same one.
        let tip = tips[suggestions % tips.count]
        suggestions += 1
        return Suggestion(time: time, reason: reason, pattern: pattern, minutes: self.minutes, tip: tip)
    }
}
