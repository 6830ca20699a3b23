import Foundation
import HRV

extension Baseline {
    /// The resting normal range in RMSSD, ms: exp(mean ln RMSSD ± 1 SD), the band stress is
    /// judged against, on the scale people read.
    var normalRMSSD: ClosedRange<Double> { exp(lnRMSSDMean - lnRMSSDSD)...exp(lnRMSSDMean + lnRMSSDSD) }

    /// exp(mean ln RMSSD), ms.
    var restingRMSSD: Double { exp(lnRMSSDMean) }
}
