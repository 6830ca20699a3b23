import RealModule

/// What stress is judged against at a moment: the rolling resting reference once it has a
/// minute of samples, the baseline before.
public struct ReferenceLevel: Equatable, Sendable {
    public var lnRMSSD: Double
    public var heartRate: Double
    /// From this recording's recent rest rather than the baseline.
    public var isRolling: Bool

    public init(lnRMSSD: Double, heartRate: Double, isRolling: Bool) {
        self.lnRMSSD = lnRMSSD
        self.heartRate = heartRate
        self.isRolling = isRolling
    }

    public var rmssd: Double { Double.exp(lnRMSSD) }
}
