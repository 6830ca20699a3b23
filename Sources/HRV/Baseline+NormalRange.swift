import RealModule

extension Baseline {
    /// The resting normal range in RMSSD, ms: exp(mean ln RMSSD ± 1 SD), the band stress is
    /// judged against, on the scale people read.
    public var normalRMSSD: ClosedRange<Double> { Double.exp(lnRMSSDMean - lnRMSSDSD)...Double.exp(lnRMSSDMean + lnRMSSDSD) }

    /// exp(mean ln RMSSD), ms.
    public var restingRMSSD: Double { Double.exp(lnRMSSDMean) }
}
