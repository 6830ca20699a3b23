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

    /// A day's resting value: its morning check when it has one (the latest), otherwise the mean
    /// of its measurements (session calibrations, imported readings).
    public struct DailyValue: Equatable, Sendable {
        public var day: String
        public var lnRMSSD: Double
        public var restingHR: Double
        /// The UTC offset it was measured at, when recorded.
        public var utcOffset: Int?
        public var isCheck: Bool
    }

    /// Daily values of the `days` calendar days up to `today`, oldest first.
    public func daily(days: Int, today: String) -> [DailyValue] {
        guard let first = CalendarDay(today)?.adding(days: -(days - 1))?.text else { return [] }
        let recent = measurements.filter { $0.day >= first && $0.day <= today }
        let grouped = Dictionary(grouping: recent, by: \.day)
        return grouped.keys.sorted().map { day in
            let values = grouped[day]!
            if let check = values.filter({ $0.kind == .check }).max(by: { ($0.time ?? 0) < ($1.time ?? 0) }) {
                return DailyValue(day: day, lnRMSSD: check.lnRMSSD, restingHR: check.restingHR, utcOffset: check.utcOffset, isCheck: true)
            }
            let n = Double(values.count)
            return DailyValue(
                day: day, lnRMSSD: values.reduce(0) { $0 + $1.lnRMSSD } / n, restingHR: values.reduce(0) { $0 + $1.restingHR } / n,
                utcOffset: values.last { $0.utcOffset != nil }?.utcOffset, isCheck: false)
        }
    }

    /// The long view of the `days` days up to `today`: each with its 7-day rolling mean and CV
    /// and the normal range of the 60 days before it (`ReadinessTrend`).
    public func readiness(days: Int, today: String) -> [ReadinessTrend.Day] {
        guard let last = CalendarDay(today) else { return [] }
        let readings = daily(days: days + ReadinessTrend.rangeDays, today: today).compactMap { value in
            CalendarDay(value.day).map { ReadinessTrend.Reading(day: $0.ordinal, lnRMSSD: value.lnRMSSD, utcOffset: value.utcOffset) }
        }
        return ReadinessTrend.days(readings, from: last.ordinal - days + 1, through: last.ordinal)
    }

    /// The day's morning check, if it has one.
    public func check(on day: String) -> RestingMeasurement? {
        measurements.last { $0.day == day && $0.kind == .check }
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
