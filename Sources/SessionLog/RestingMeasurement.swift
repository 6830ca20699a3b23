import HRV

/// One day's resting measurement: what a session calibration (or an imported morning reading)
/// found at rest.
public struct RestingMeasurement: Codable, Equatable, Sendable {
    /// Calendar day, `YYYY-MM-DD`, in the user's local time.
    public var day: String
    public var lnRMSSD: Double
    public var restingHR: Double
    /// Where it came from: a session file, a recording's name, or `check`.
    public var source: String
    /// What kind of measurement it is: nil for a session's calibration or an imported reading.
    public var kind: Kind?
    /// When it was taken (Unix seconds) and the UTC offset there, seconds east: the day is the
    /// local calendar day at that offset. Absent in records written before hrvmon kept them.
    public var time: Double?
    public var utcOffset: Int?

    public enum Kind: String, Codable, Sendable {
        /// `hrvmon check`: the morning readiness measurement, the day's value when there is one.
        case check
    }

    public init(day: String, lnRMSSD: Double, restingHR: Double, source: String, kind: Kind? = nil, time: Double? = nil, utcOffset: Int? = nil) {
        self.day = day
        self.lnRMSSD = lnRMSSD
        self.restingHR = restingHR
        self.source = source
        self.kind = kind
        self.time = time
        self.utcOffset = utcOffset
    }

    /// What a recording's calibration measured at rest.
    public init(day: String, measured baseline: Baseline, source: String, time: Double? = nil, utcOffset: Int? = nil) {
        self.init(day: day, lnRMSSD: baseline.lnRMSSDMean, restingHR: baseline.restingHR, source: source, time: time, utcOffset: utcOffset)
    }

    enum CodingKeys: String, CodingKey {
        case day
        case lnRMSSD = "ln_rmssd"
        case restingHR = "resting_hr_bpm"
        case source
        case kind
        case time = "t"
        case utcOffset = "utc_offset_s"
    }
}
