import HRV

/// What a live session reports, in order, for the outputs (JSON Lines, text, dashboard, the
/// session file).
public enum LiveEvent: Equatable, Sendable {
    /// One received beat, exactly once, in arrival order.
    case beat(ReceivedBeat)
    /// A beat placed on the corrected timeline, after the corrector's look-ahead: its class and
    /// corrected value. Correction can split or merge intervals, so these do not pair one to one
    /// with received beats.
    case placed(Beat)
    /// The windows after a notification's beats went through the pipeline.
    case metrics(MetricsReport)
    /// A notification that is not a valid Heart Rate Measurement: counted, never fatal.
    case malformed(MalformedPacket)
    /// The next beat does not follow the previous one (link loss, stall, re-subscription).
    case gap(time: Double)
    case episode(StressEpisode)
    case suggestion(BreathingCoach.Suggestion)
    /// A breathing exercise started or stopped.
    case exercise(ExerciseMark)
    /// The measured effect of an exercise, once the minutes after it are in (or the session ends).
    case effect(ExerciseEffect)
}
