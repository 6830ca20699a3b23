/// Time-domain HRV of a set of RR intervals, with the conventions of NeuroKit2's `hrv_time`.
public struct TimeDomainMetrics: Equatable, Sendable {
    /// Number of RR intervals.
    public var beats: Int
    /// Number of successive differences (pairs of adjacent intervals).
    public var differences: Int
    public var meanNN: Double
    /// Sample standard deviation (N − 1); nil below two intervals.
    public var sdnn: Double?
    /// Root mean square of successive differences; nil without a difference.
    public var rmssd: Double?
    /// Sample standard deviation of the successive differences; nil below two differences.
    public var sdsd: Double?
    /// Share of successive differences strictly above 50 ms, in percent of the number of
    /// intervals N (NeuroKit2's convention; hrv-analysis and pyHRV divide by N − 1).
    public var pnn50: Double?
    /// The same for 20 ms.
    public var pnn20: Double?
    /// Poincaré plot: spread across the identity line (SDSD / √2, short-term variability).
    public var sd1: Double?
    /// Poincaré plot: spread along the identity line (long-term variability). Whole recordings
    /// only (`RecordingTotals.metrics`); nil for rolling windows.
    public var sd2: Double?
    /// 60,000 / MeanNN: the rate implied by the mean interval, not the mean of instantaneous rates
    /// (which is ~1 bpm higher for a variable rhythm).
    public var meanHR: Double

    public init(beats: Int, differences: Int, meanNN: Double, sdnn: Double?, meanHR: Double) {
        self.beats = beats
        self.differences = differences
        self.meanNN = meanNN
        self.sdnn = sdnn
        self.meanHR = meanHR
    }

    public var lnRMSSD: Double? { rmssd.flatMap { $0 > 0 ? Double.log($0) : nil } }
    /// SDNN / MeanNN.
    public var cvnn: Double? { sdnn.map { $0 / meanNN } }
    public var sd1sd2: Double? {
        guard let sd1, let sd2, sd2 > 0 else { return nil }
        return sd1 / sd2
    }
}

import RealModule
