/// The judgement after one beat.
public struct StressAssessment: Equatable, Sendable {
    public var state: StressState
    /// 0–100: 25 at the resting reference, plus 50 per unit of ln RMSSD below it (halving RMSSD
    /// adds 35) and 0.5 per bpm above the reference heart rate. Nil unless the state is rest,
    /// elevated or stress; never 0 in stress (the onset needs ln RMSSD well below the reference).
    public var level: Double?
    /// ln RMSSD against the reference, in SDs; nil without a usable window.
    public var zScore: Double?
    /// Heart rate (RMSSD window) minus the reference heart rate.
    public var heartRateAboveRest: Double?
    /// The session baseline is still being measured.
    public var isCalibrating: Bool
    /// Set on the one beat where a stress episode is declared: its start (dated back) so far.
    public var episodeStarted: StressEpisode?
    /// Breaths per minute, from the chest accelerometer while it reads breathing, else from the
    /// last minute's RR spectrum; nil before either has one.
    public var breathingRate: Double?
    /// Where `breathingRate` was read.
    public var breathingSource: BreathingSource?
    /// What the chest accelerometer said the detector judged with: still, or moving (walking is
    /// moving too); nil without one.
    public var motion: MotionSecond.Level?

    public init(
        state: StressState, level: Double? = nil, zScore: Double? = nil, heartRateAboveRest: Double? = nil,
        isCalibrating: Bool, episodeStarted: StressEpisode? = nil, breathingRate: Double? = nil,
        breathingSource: BreathingSource? = nil
    ) {
        self.state = state
        self.level = level
        self.zScore = zScore
        self.heartRateAboveRest = heartRateAboveRest
        self.isCalibrating = isCalibrating
        self.episodeStarted = episodeStarted
        self.breathingRate = breathingRate
        self.breathingSource = breathingSource
    }
}

/// Where a breathing rate was read: the chest's tilting (``ChestBreathing``) or the RR spectrum's
/// respiratory peak (``BreathingEstimate``).
public enum BreathingSource: String, Sendable, CaseIterable {
    case chest, rr
}
