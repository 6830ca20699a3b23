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

    public init(
        time: Double, received: Double, packet: Int, ticks: UInt16, heartRate: UInt16,
        sensorContact: HeartRateMeasurement.SensorContact, energyExpended: UInt16?, sequence: Int
    ) {
        self.time = time
        self.received = received
        self.packet = packet
        self.ticks = ticks
        self.heartRate = heartRate
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.sequence = sequence
    }
}

extension ReceivedBeat {
    /// The times of a packet's beats: its arrival back-dated by the RR values after each in the
    /// packet. The pipeline dates beats so, and the session file's reader (whose `packet` lines
    /// keep only the arrival) dates them again so, to the same bits.
    public static func times(of intervals: [UInt16], arrivedAt time: Double) -> [Double] {
        var remaining = intervals.reduce(0.0) { $0 + RRTicks.milliseconds($1) / 1000 }
        return intervals.map { ticks in
            remaining -= RRTicks.milliseconds(ticks) / 1000
            return time - remaining
        }
    }
}
