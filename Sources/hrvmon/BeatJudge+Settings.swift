import HRV
import Settings

extension BeatJudge {
    /// The judge the user configured, over `baseline` (nil: calibrate on the session).
    init(settings: Settings, baseline: Baseline?, effects: [ExerciseEffect] = []) throws {
        let pattern: BreathingPattern
        do {
            pattern = try BreathingPattern(parsing: settings.breathing.pattern, resonanceRate: settings.breathing.rate)
        } catch {
            throw badInput(error)
        }
        self.init(
            detector: StressDetector(configuration: settings.stress, baseline: baseline),
            coach: BreathingCoach(
                pattern: pattern, minutes: settings.breathing.minutes, cooldown: settings.breathing.cooldown,
                extraTips: settings.breathing.tips),
            effects: effects)
    }
}
