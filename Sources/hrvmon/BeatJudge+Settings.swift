import HRV
import SessionLog
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

extension DataDirectory {
    /// The personal resting baseline, when the history holds enough days.
    static func personalBaseline(_ settings: Settings) throws -> Baseline? {
        let history: BaselineHistory
        do { history = try loadHistory() } catch { throw badInput(error) }
        return history.baseline(
            days: Int(settings.baseline.days), minimumDays: Int(settings.baseline.minimumDays),
            minimumSD: settings.stress.minimumSD, today: today)
    }
}
