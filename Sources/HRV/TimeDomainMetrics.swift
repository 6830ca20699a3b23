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
    /// Share of successive differences strictly above 50 ms, in percent of the number of
    /// intervals N (NeuroKit2's convention; hrv-analysis and pyHRV divide by N − 1).
    public var pnn50: Double?
    /// 60,000 / MeanNN: the rate implied by the mean interval, not the mean of instantaneous rates
    /// (which is ~1 bpm higher for a variable rhythm).
    public var meanHR: Double

    public var lnRMSSD: Double? { rmssd.flatMap { $0 > 0 ? log($0) : nil } }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
