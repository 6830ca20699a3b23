import HRV

extension BeatJudge {
    /// The judge the user configured, over `baseline` (nil: calibrate on the session).
    public init(settings: Settings, baseline: Baseline?, effects: [ExerciseEffect] = []) throws {
        self.init(
            detector: StressDetector(configuration: settings.stress, baseline: baseline),
            coach: BreathingCoach(
                pattern: try settings.breathing.exercisePattern(), minutes: settings.breathing.minutes,
                cooldown: settings.breathing.cooldown, extraTips: settings.breathing.tips),
            effects: effects)
    }
}

extension Settings.Breathing {
    /// The configured exercise (`breathing.pattern` at `breathing.rate`).
    public func exercisePattern() throws -> BreathingPattern {
        try BreathingPattern(parsing: pattern, resonanceRate: rate)
    }
}
