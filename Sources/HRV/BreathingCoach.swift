#if canImport(Glibc)
import Glibc
#endif

/// Suggests a breathing exercise when a stress episode starts: with its reason, at most once per
/// cool-down, with one short stress-relief tip.
public struct BreathingCoach {
    public struct Suggestion: Equatable, Sendable {
        /// Beat time of the suggestion, seconds.
        public var time: Double
        /// Why, in numbers: "RMSSD 18 ms, 60 % below your baseline, for 2 min".
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
    public mutating func consider(_ assessment: StressAssessment, window: WindowMetrics, baseline: Baseline?, at time: Double) -> Suggestion? {
        guard let episode = assessment.episodeStarted, let baseline,
              lastSuggestion.map({ time - $0 >= cooldown }) ?? true,
              let rmssd = window.statistics.rmssd
        else { return nil }
        lastSuggestion = time
        let usual = exp(baseline.lnRMSSDMean)
        let below = max(0, Int(((1 - rmssd / usual) * 100).rounded()))
        let minutes = max(1, Int(((time - episode.start) / 60).rounded()))
        let reason = "RMSSD \(Int(rmssd.rounded())) ms, \(below) % below your baseline of \(Int(usual.rounded())) ms, for \(minutes) min"
        // Tips rotate so a long day does not repeat the same one.
        let tip = tips[suggestions % tips.count]
        suggestions += 1
        return Suggestion(time: time, reason: reason, pattern: pattern, minutes: self.minutes, tip: tip)
    }
}
