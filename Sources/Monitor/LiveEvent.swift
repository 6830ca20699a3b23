import HRV
import HeartRateProtocol

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

public struct ReceivedBeat: Equatable, Sendable {
    /// Wall-clock time of the beat (Unix seconds): the packet's arrival, back-dated by the RR
    /// values after it in the same packet.
    public var time: Double
    /// When the notification that carried it arrived (Unix seconds).
    public var received: Double
    /// Counts notifications that carried beats, from 1: beats of one packet share it.
    public var packet: Int
    /// The interval as the strap sent it, in 1/1024 s.
    public var ticks: UInt16
    /// The heart rate field of the packet that carried it.
    public var heartRate: UInt16
    public var sensorContact: HeartRateMeasurement.SensorContact
    public var energyExpended: UInt16?
    /// Counts every beat received in the session from 1.
    public var sequence: Int
}

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
}

public struct MalformedPacket: Equatable, Sendable {
    public var time: Double
    public var bytes: [UInt8]
    public var error: HeartRateMeasurementError
    /// Malformed packets so far in the session, this one included.
    public var count: Int
}

/// The start or end of a breathing exercise the user took during the session.
public struct ExerciseMark: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case started, stopped
    }

    public var kind: Kind
    /// The pattern's name (resonance, box, 4-7-8, or IN-HOLD-OUT seconds).
    public var pattern: String
    /// Wall-clock time (Unix seconds).
    public var time: Double
    /// Position on the session's RR timeline, the clock effects are measured on.
    public var sessionSeconds: Double

    public init(kind: Kind, pattern: String, time: Double, sessionSeconds: Double) {
        self.kind = kind
        self.pattern = pattern
        self.time = time
        self.sessionSeconds = sessionSeconds
    }
}
