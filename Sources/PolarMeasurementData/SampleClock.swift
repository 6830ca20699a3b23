/// When each sample of a frame was taken. The frame's timestamp is its last sample's; earlier
/// ones are spaced evenly back from it, by the time since the previous frame of the same stream
/// divided by the sample count (as polar-ble-sdk's `PmdTimeStampUtils` does). The first frame,
/// a frame after a lost one, or the strap's clock jumping (polar-ble-sdk #387) falls back to the
/// nominal rate.
public struct PMDSampleClock: Sendable {
    private var previous: [PMDMeasurementType: UInt64] = [:]

    public init() {}

    /// The samples' times in ns on the strap's clock, oldest first.
    public mutating func sampleTimes(of frame: PMDFrame, nominalRate: Double) -> [UInt64] {
        let count = frame.samples.count
        let nominal = nominalRate > 0 ? 1e9 / nominalRate : 0
        var interval = nominal
        if let last = previous[frame.measurementType], frame.timestamp > last {
            let measured = Double(frame.timestamp - last) / Double(count)
            // Within a fifth of the nominal rate: a lost frame doubles the gap, a jump is anything.
            if nominal == 0 || abs(measured - nominal) <= nominal / 5 { interval = measured }
        }
        previous[frame.measurementType] = frame.timestamp
        return (0..<count).map { index in
            let back = (interval * Double(count - 1 - index)).rounded()
            guard back < Double(frame.timestamp) else { return 0 }
            return frame.timestamp - min(UInt64(back), frame.timestamp)
        }
    }

    /// A stream that starts again (a reconnect, a restart) has no previous frame.
    public mutating func reset() { previous = [:] }
}
