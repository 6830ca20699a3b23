/// What is judged after the HRV pipeline, beat by beat: stress state and episodes, breathing
/// suggestions, measured exercise effects. Offline analysis and live monitoring share it, so the
/// same RR gives the same verdicts.
public struct BeatJudge {
    public var detector: StressDetector
    public var coach: BreathingCoach
    public var effects: [ExerciseEffect]
    /// Episodes in the order they ended.
    public private(set) var episodes: [StressEpisode] = []
    public private(set) var suggestions: [BreathingCoach.Suggestion] = []
    /// Seconds of the beat timeline spent in each state: each beat's interval counts for the
    /// state judged at it.
    public private(set) var stateSeconds = StateSeconds()
    /// Seconds of the beat timeline judged with breathing from each source, counted as `stateSeconds`.
    public private(set) var breathingSourceSeconds: [BreathingSource: Double] = [:]

    public init(detector: StressDetector, coach: BreathingCoach = BreathingCoach(), effects: [ExerciseEffect] = []) {
        self.detector = detector
        self.coach = coach
        self.effects = effects
    }

    public mutating func judge(_ update: HRVUpdate, sensorContact: Bool = true) -> StressAssessment {
        judge(VerdictInput(update), sensorContact: sensorContact)
    }

    public mutating func judge(_ update: VerdictInput, sensorContact: Bool = true) -> StressAssessment {
        let assessment = detector.update(update, sensorContact: sensorContact) { episodes.append($0) }
        // A suggestion answers only the beat where an episode is declared: asking on every beat
        // cost more than the rest of the judge around the detector.
        if assessment.episodeStarted != nil, let suggestion = coach.consider(assessment, at: update.beat.seconds) {
            suggestions.append(suggestion)
        }
        let chestRate = detector.chestBreathingRate(at: update.beat.seconds)
        for index in effects.indices { effects[index].observe(update.beat, breathingFrequency: chestRate.map { $0 / 60 }) }
        stateSeconds[assessment.isCalibrating ? .unknown : assessment.state] += update.beat.interval.seconds
        if let source = assessment.breathingSource { breathingSourceSeconds[source, default: 0] += update.beat.interval.seconds }
        return assessment
    }

    /// Closes the episodes still open at the end.
    public mutating func finish() {
        detector.finish { episodes.append($0) }
    }
}
