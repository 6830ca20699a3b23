import HeartRateProtocol

/// One beat as it arrived, before the pipeline: for the session file and the outputs.
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
