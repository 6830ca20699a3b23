import HeartRateProtocol
import LivePipeline
import PolarMeasurementData
import SessionLog

/// Where a running session's events go. Outputs are told every event in order, and the summary
/// once at the end.
public protocol SessionOutput: AnyObject {
    /// `line` is the event's JSON line, for the outputs that write it.
    func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine)
    func finish(_ summary: SessionSummary)
    /// A notification that carried beats arrived at `time`; its events follow.
    func notificationArrived(_ measurement: HeartRateMeasurement, at time: Double)
    /// A frame of the strap's Measurement Data (accelerometer or ECG) arrived at `time`, its
    /// samples taken at `sampleRate` a second, at `sampleTimes` on the session's clock (oldest
    /// first; the times the session file's ECG has too).
    func measurementDataArrived(_ frame: PMDFrame, sampleRate: Double, sampleTimes: [Double], at time: Double)
    /// Samples of the strap's ECG (`--ecg`), placed on the session's clock: not an event, so the
    /// outputs that print events are not flooded with 130 samples a second.
    func ecgArrived(_ samples: ECGSamples)
}

extension SessionOutput {
    public func notificationArrived(_ measurement: HeartRateMeasurement, at time: Double) {}
    public func measurementDataArrived(_ frame: PMDFrame, sampleRate: Double, sampleTimes: [Double], at time: Double) {}
    public func ecgArrived(_ samples: ECGSamples) {}
}
