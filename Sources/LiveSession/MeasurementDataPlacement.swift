import PolarMeasurementData

/// When the samples of the strap's Measurement Data were taken, on the session's clock (Unix
/// seconds, as a beat's `t`), each measurement type on its own: the strap's clock spaces the
/// samples (`PMDSampleClock`: a frame's timestamp is its last sample's); the session's clock
/// anchors them. A frame arrives after its last sample was taken, by the link's latency, so the
/// anchor is the earliest arrival seen: a frame that comes sooner than the anchor expects moves it
/// at once, one that comes later moves it by at most `creep` (the clocks' drift, tens of ppm, is
/// far slower; the delivery's jitter stays out). A frame more than `jump` late (a strap clock that
/// jumped, polar-ble-sdk #387) or whose timestamp goes back anchors the stream again, and so does
/// a gap in the link (`reset`). Computed once per frame (`SessionRun`), so every output (LSL, the
/// session file's ECG) gives a sample the same time.
struct MeasurementDataPlacement {
    /// Seconds the anchor moves later per frame at most: 0.1 ms, ~180 ppm at 73 samples a frame.
    static let creep = 0.0001
    static let jump = 1.0

    private var clock = PMDSampleClock()
    /// Per measurement type: session seconds minus strap seconds, and the last frame's timestamp.
    private var anchors: [PMDMeasurementType: (offset: Double, lastFrame: UInt64)] = [:]

    /// The session times of `frame`'s samples, oldest first, the frame arriving at `time`.
    mutating func sampleTimes(of frame: PMDFrame, sampleRate: Double, arrivedAt time: Double) -> [Double] {
        let strap = clock.sampleTimes(of: frame, nominalRate: sampleRate)
        let arrival = time - Self.seconds(frame.timestamp)
        var offset = arrival
        if let anchor = anchors[frame.measurementType], frame.timestamp > anchor.lastFrame,
           case let lateness = arrival - anchor.offset, lateness >= 0, lateness <= Self.jump {
            offset = anchor.offset + min(lateness, Self.creep)
        }
        anchors[frame.measurementType] = (offset, frame.timestamp)
        return strap.map { Self.seconds($0) + offset }
    }

    /// The link went down: what streams next is anchored anew.
    mutating func reset() {
        clock.reset()
        anchors = [:]
    }

    private static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}
