import HRV

/// The rolling windows and the judgement after a notification's beats.
public struct MetricsReport: Equatable, Sendable {
    public var time: Double
    /// Seconds of RR since the session's first beat (the pipeline's clock).
    public var sessionSeconds: Double
    public var rmssdWindow: WindowMetrics
    public var sdnnWindow: WindowMetrics
    public var assessment: StressAssessment
    /// What the assessment was judged against: the personal baseline, or the session's once
    /// calibrated; nil before.
    public var baseline: Baseline?
    /// The level judged against now (the rolling reference, or the baseline before it has data).
    public var reference: ReferenceLevel?
    /// Beats judged so far (after the corrector's look-ahead).
    public var judgedBeats: Int
    /// DFA α1 of the last two minutes (``RollingDFA``); nil before two minutes of beats.
    public var dfaAlpha1: Double?
    /// The running breathing exercise's newest coherence reading; nil outside exercises and
    /// before the exercise's first 64 s.
    public var coherence: Coherence?
    /// The stress episode this notification's beats declared (dated back to where it began), if
    /// one was: the session's moment of stress onset.
    public var stressOnset: StressEpisode?
}
