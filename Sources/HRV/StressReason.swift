/// Why a stress episode was declared, in the numbers the rule used at its onset.
public struct StressReason: Equatable, Sendable {
    /// RMSSD of the window against the resting reference, as a fraction (−0.35: 35 % below).
    public var rmssdChange: Double
    /// RMSSD of the window and the reference it was compared with, ms.
    public var rmssd: Double
    public var referenceRMSSD: Double
    /// Heart rate of the window above the reference heart rate, bpm.
    public var heartRateAboveRest: Double
    /// Breathing rate read from the RR spectrum, breaths per minute; nil when not yet estimated.
    public var breathingRate: Double?

    public init(rmssdChange: Double, rmssd: Double, referenceRMSSD: Double, heartRateAboveRest: Double, breathingRate: Double?) {
        self.rmssdChange = rmssdChange
        self.rmssd = rmssd
        self.referenceRMSSD = referenceRMSSD
        self.heartRateAboveRest = heartRateAboveRest
        self.breathingRate = breathingRate
    }

    /// "RMSSD 28 ms, 36 % below your reference of 44 ms; heart rate +8 bpm; breathing 18/min".
    public var description: String {
        var text = "RMSSD \(Int(rmssd.rounded())) ms, \(Int((-rmssdChange * 100).rounded())) % below your reference of \(Int(referenceRMSSD.rounded())) ms"
        text += "; heart rate +\(Int(heartRateAboveRest.rounded())) bpm"
        if let breathingRate { text += "; breathing \(Int(breathingRate.rounded()))/min" }
        return text
    }
}
