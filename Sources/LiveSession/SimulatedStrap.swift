import HeartRateProtocol
import Simulation

/// What a chest strap sends for simulated beats: a Heart Rate Measurement notification every
/// second carrying the RR intervals completed since the previous one — one or two, and none now
/// and then when the heart is slower than 60 bpm — with the heart rate averaged over the last
/// few beats, as straps smooth it.
public enum SimulatedStrap {
    public struct Notification {
        /// Seconds from the start of the recording.
        public var seconds: Double
        public var bytes: [UInt8]
    }

    public static let interval = 1.0
    /// Beats the heart rate field is averaged over.
    public static let smoothing = 5

    public static func notifications(for beats: [SimulatedBeat]) -> [Notification] {
        var notifications: [Notification] = []
        var next = 0
        var recent: [UInt16] = []
        var tick = 1
        while next < beats.count {
            let seconds = Double(tick) * interval
            var intervals: [UInt16] = []
            while next < beats.count, beats[next].seconds <= seconds {
                intervals.append(beats[next].rrTicks)
                next += 1
            }
            recent = Array((recent + intervals).suffix(smoothing))
            // Before the first beat there is no heart rate to send.
            if !recent.isEmpty {
                let heartRate = UInt16((60 * 1024 * Double(recent.count) / Double(recent.reduce(0) { $0 + Int($1) })).rounded())
                let measurement = HeartRateMeasurement(heartRate: heartRate, sensorContact: .detected, rrIntervals: intervals)
                notifications.append(Notification(seconds: seconds, bytes: measurement.encoded()))
            }
            tick += 1
        }
        return notifications
    }
}
