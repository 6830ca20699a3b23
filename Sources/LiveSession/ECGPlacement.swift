import PolarMeasurementData
import SessionLog

/// Places the strap's ECG frames on the session's clock. The strap's own clock spaces the
/// samples (`PMDSampleClock`: a frame's timestamp is its last sample's); the session's clock
/// anchors them. A frame arrives after its last sample was taken, by the link's latency, so the
/// anchor is the earliest arrival seen: a frame that comes sooner than the anchor expects moves it
/// at once, one that comes later moves it by at most `creep` (the clocks' drift, ~50 ppm, is far
/// slower), and one more than `jump` late (a strap clock that jumped, polar-ble-sdk #387) anchors
/// it again.
struct ECGPlacement {
    /// Seconds the anchor moves later per frame at most: 0.1 ms, ~180 ppm at 73 samples a frame.
    static let creep = 0.0001
    static let jump = 1.0

    private var clock = PMDSampleClock()
    /// Session seconds minus strap seconds.
    private var offset: Double?

    /// The samples of `frame` (an ECG frame's µV) on the session's clock, the frame arriving at `time`.
    mutating func place(_ frame: PMDFrame, microvolts: [Int32], sampleRate: Double, arrivedAt time: Double) -> ECGSamples {
        let times = clock.sampleTimes(of: frame, nominalRate: sampleRate)
        let last = Double(frame.timestamp) / 1e9
        if let anchored = offset, case let lateness = time - (last + anchored), lateness >= 0, lateness <= Self.jump {
            offset = anchored + min(lateness, Self.creep)
        } else {
            offset = time - last
        }
        let period = times.count > 1 ? Double(times[times.count - 1] - times[0]) / Double(times.count - 1) : 1e9 / sampleRate
        let start = Int64((offset! * 1e6).rounded()) + Int64(times[0] / 1000)
        return ECGSamples(startMicroseconds: start, periodNanoseconds: Int64(period.rounded()), microvolts: microvolts)
    }

    /// A stream that starts again (after a gap in the link) is anchored anew.
    mutating func reset() {
        clock.reset()
        offset = nil
    }
}
