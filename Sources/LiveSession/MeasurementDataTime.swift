import PolarMeasurementData

/// When the samples of the strap's Measurement Data were taken, on the session's clock (Unix
/// seconds, as a beat's `t`): each sample's time on the strap's own clock (`PMDSampleClock`), plus
/// the smallest difference yet seen between a frame's arrival and its last sample. A frame cannot
/// come before its samples were taken, so that smallest difference is the strap's clock offset
/// plus the quickest delivery — the samples keep the strap's spacing, and the delivery's jitter
/// stays out. A stream that starts again (a reconnect; the strap's clock going back) is anchored
/// afresh. The strap's and the computer's clocks drift apart by their crystals' tolerance (tens of
/// ppm: tens of milliseconds an hour): a drift that makes frames come earlier is followed, one
/// that makes them come later is not.
struct MeasurementDataTime {
    private var sampleClock = PMDSampleClock()
    private var streams: [PMDMeasurementType: (offset: Double, lastFrame: UInt64)] = [:]

    /// The session times of `frame`'s samples, oldest first.
    mutating func sampleTimes(of frame: PMDFrame, sampleRate: Double, arrivedAt time: Double) -> [Double] {
        let type = frame.measurementType
        if let stream = streams[type], frame.timestamp <= stream.lastFrame { restart() }
        let strap = sampleClock.sampleTimes(of: frame, nominalRate: sampleRate)
        let delay = time - Self.seconds(frame.timestamp)
        let offset = min(streams[type]?.offset ?? delay, delay)
        streams[type] = (offset, frame.timestamp)
        return strap.map { Self.seconds($0) + offset }
    }

    /// The link went down: what streams next starts anew.
    mutating func restart() {
        sampleClock.reset()
        streams = [:]
    }

    private static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}
