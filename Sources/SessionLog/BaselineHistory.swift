import HRV

/// The user's resting measurements across days, and the rolling personal baseline they give
/// (HRV4Training / Plews: a rolling mean of daily resting ln RMSSD with its day-to-day spread).
public struct BaselineHistory: Codable, Equatable, Sendable {
    /// Format of the stored file, for readers of older or newer files.
    public var version = 1
    public private(set) var measurements: [RestingMeasurement] = []

    public init() {}

    /// Adds a measurement; a day keeps one value per source (the latest).
    public mutating func record(_ measurement: RestingMeasurement) {
        measurements.removeAll { $0.day == measurement.day && $0.source == measurement.source }
        measurements.append(measurement)
        measurements.sort { ($0.day, $0.source) < ($1.day, $1.source) }
    }

    /// Removes the measurements `matching` says; returns how many.
    public mutating func remove(where matching: (RestingMeasurement) -> Bool) -> Int {
        let before = measurements.count
        measurements.removeAll(where: matching)
        return before - measurements.count
    }

    /// Daily values (the mean of a day's measurements) of the `days` calendar days up to `today`.
    public func daily(days: Int, today: String) -> [(day: String, lnRMSSD: Double, restingHR: Double)] {
        guard let first = CalendarDay(today)?.adding(days: -(days - 1))?.text else { return [] }
        let recent = measurements.filter { $0.day >= first && $0.day <= today }
        let grouped = Dictionary(grouping: recent, by: \.day)
        return grouped.keys.sorted().map { day in
            let values = grouped[day]!
            let n = Double(values.count)
            return (day, values.reduce(0) { $0 + $1.lnRMSSD } / n, values.reduce(0) { $0 + $1.restingHR } / n)
        }
    }

    /// The personal baseline over the last `days` days, or nil with fewer than `minimumDays`
    /// days of data — never a number invented from too little.
    public func baseline(days: Int, minimumDays: Int, minimumSD: Double, today: String) -> Baseline? {
        let values = daily(days: days, today: today)
        guard values.count >= max(minimumDays, 2) else { return nil }
        return Baseline(
            source: .personal, lnRMSSD: values.map(\.lnRMSSD), restingHR: values.map(\.restingHR), minimumSD: minimumSD)
    }
}
