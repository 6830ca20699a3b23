import HRV

/// One day's resting measurement: what a session calibration (or an imported morning reading)
/// found at rest.
public struct RestingMeasurement: Codable, Equatable, Sendable {
    /// Calendar day, `YYYY-MM-DD`, in the user's local time.
    public var day: String
    public var lnRMSSD: Double
    public var restingHR: Double
    /// Where it came from: a session file or a recording's name.
    public var source: String

    public init(day: String, lnRMSSD: Double, restingHR: Double, source: String) {
        self.day = day
        self.lnRMSSD = lnRMSSD
        self.restingHR = restingHR
        self.source = source
    }

    /// What a recording's calibration measured at rest.
    public init(day: String, measured baseline: Baseline, source: String) {
        self.init(day: day, lnRMSSD: baseline.lnRMSSDMean, restingHR: baseline.restingHR, source: source)
    }

    enum CodingKeys: String, CodingKey {
        case day
        case lnRMSSD = "ln_rmssd"
        case restingHR = "resting_hr_bpm"
        case source
    }
}
