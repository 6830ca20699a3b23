/// The judgement after one beat.
public struct StressAssessment: Equatable, Sendable {
    public var state: StressState
    /// 0–100: 25 at the resting baseline, plus 50 per unit of ln RMSSD below the resting mean
    /// (halving RMSSD adds 35) and 0.5 per bpm above resting HR. Nil when the state is `unknown`
    /// or `activity`.
    public var level: Double?
    /// ln RMSSD against the baseline, in SDs; nil without a judgement.
    public var zScore: Double?
    /// Heart rate (RMSSD window) minus resting heart rate.
    public var heartRateAboveRest: Double?
    /// The session baseline is still being measured.
    public var isCalibrating: Bool
    /// Set on the one beat where a stress episode is declared: its start (dated back) so far.
    public var episodeStarted: StressEpisode?

    public init(
        state: StressState, level: Double? = nil, zScore: Double? = nil, heartRateAboveRest: Double? = nil,
        isCalibrating: Bool, episodeStarted: StressEpisode? = nil
    ) {
        self.state = state
        self.level = level
        self.zScore = zScore
        self.heartRateAboveRest = heartRateAboveRest
        self.isCalibrating = isCalibrating
        self.episodeStarted = episodeStarted
    }
}
