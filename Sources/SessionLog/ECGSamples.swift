/// Consecutive samples of the strap's ECG (Polar Measurement Data, 130 Hz on the H10), evenly
/// spaced, on the session's clock: what the session file keeps (`ecg` lines) and reads back, and
/// what an R-peak detector reads. Times are whole microseconds and the spacing whole nanoseconds,
/// so a run reads back from the file exactly as it was written.
public struct ECGSamples: Equatable, Sendable {
    /// Unix microseconds of the first sample.
    public var startMicroseconds: Int64
    /// Nanoseconds from one sample to the next (7,692,308 at 130 Hz).
    public var periodNanoseconds: Int64
    /// The samples in µV, oldest first.
    public var microvolts: [Int32]

    public init(startMicroseconds: Int64, periodNanoseconds: Int64, microvolts: [Int32]) {
        self.startMicroseconds = startMicroseconds
        self.periodNanoseconds = periodNanoseconds
        self.microvolts = microvolts
    }

    /// `start` (Unix seconds) to the microsecond, `rate` samples a second.
    public init(start: Double, rate: Double, microvolts: [Int32]) {
        self.init(
            startMicroseconds: Int64((start * 1e6).rounded()), periodNanoseconds: Int64((1e9 / rate).rounded()), microvolts: microvolts)
    }

    /// Unix seconds of the first sample.
    public var start: Double { Double(startMicroseconds) / 1e6 }

    /// Samples a second.
    public var rate: Double { 1e9 / Double(periodNanoseconds) }

    /// Unix seconds of sample `index`.
    public func time(ofSample index: Int) -> Double {
        Double(startMicroseconds) / 1e6 + Double(Int64(index) * periodNanoseconds) / 1e9
    }

    /// Unix seconds of each sample, oldest first.
    public var times: [Double] { microvolts.indices.map(time(ofSample:)) }
}
