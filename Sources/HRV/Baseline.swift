/// The resting reference stress is judged against: resting heart rate and the distribution of
/// ln RMSSD at rest.
public struct Baseline: Equatable, Sendable, Codable {
    public enum Source: String, Sendable, Codable {
        /// The first minutes of this recording, taken at rest.
        case session
        /// The user's rolling multi-day resting values.
        case personal
    }

    public var source: Source
    public var restingHR: Double
    public var lnRMSSDMean: Double
    /// Spread of resting ln RMSSD, never below the configured floor.
    public var lnRMSSDSD: Double
    /// Samples (session: windows; personal: days) the values rest on.
    public var samples: Int

    public init(source: Source, restingHR: Double, lnRMSSDMean: Double, lnRMSSDSD: Double, samples: Int) {
        self.source = source
        self.restingHR = restingHR
        self.lnRMSSDMean = lnRMSSDMean
        self.lnRMSSDSD = lnRMSSDSD
        self.samples = samples
    }

    /// From samples of resting ln RMSSD and heart rate: their means, and the sample SD (N−1) of
    /// ln RMSSD, never below `minimumSD`. Needs at least two samples.
    public init(source: Source, lnRMSSD: [Double], restingHR: [Double], minimumSD: Double) {
        let n = Double(lnRMSSD.count)
        let mean = lnRMSSD.reduce(0, +) / n
        let variance = lnRMSSD.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
        self.init(
            source: source, restingHR: restingHR.reduce(0, +) / Double(restingHR.count), lnRMSSDMean: mean,
            lnRMSSDSD: max(variance.squareRoot(), minimumSD), samples: lnRMSSD.count)
    }

    /// How many SDs `lnRMSSD` lies above (positive) or below (negative) the resting mean.
    public func zScore(lnRMSSD: Double) -> Double {
        (lnRMSSD - lnRMSSDMean) / lnRMSSDSD
    }
}
