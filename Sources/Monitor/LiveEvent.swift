import HRV
import HeartRateProtocol

/// What a live session reports, in order, for the outputs (JSON Lines, text, the session file).
public enum LiveEvent: Equatable, Sendable {
    /// One received beat, exactly once, in arrival order.
    case beat(ReceivedBeat)
    /// The windows after a notification's beats went through the pipeline.
    case metrics(MetricsReport)
    /// A notification that is not a valid Heart Rate Measurement: counted, never fatal.
    case malformed(MalformedPacket)
    case episode(StressEpisode)
    case suggestion(BreathingCoach.Suggestion)
}

public struct ReceivedBeat: Equatable, Sendable {
    /// Wall-clock time of the beat (Unix seconds): the packet's arrival, back-dated by the RR
    /// values after it in the same packet.
    public var time: Double
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
