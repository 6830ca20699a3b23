/// The judgement after one beat.
public struct StressAssessment: Equatable, Sendable {
    public var state: StressState
    /// 0–100: about 25 at the resting baseline, rising 12.5 per SD of ln RMSSD below it and 1 per
    /// bpm above resting HR. Nil when the state is `unknown` or `activity`.
    public var level: Double?
    /// ln RMSSD against the baseline, in SDs; nil without a judgement.
    public var zScore: Double?
    /// Heart rate (RMSSD window) minus resting heart rate.
    public var heartRateAboveRest: Double?
    /// The session baseline is still being measured.
    public var isCalibrating: Bool
}
