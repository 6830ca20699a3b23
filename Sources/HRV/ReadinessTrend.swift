import RealModule

/// The long view of daily resting ln RMSSD, as HRV-guided training reads it (Plews et al. 2012,
/// 2013, 2014; HRV4Training's normal values): a 7-day rolling mean and coefficient of variation,
/// and a normal range from the 60 days before, which the rolling mean is judged against. Days are
/// calendar-day ordinals; a missing day is simply absent, never filled in.
public enum ReadinessTrend {
    /// One day's morning value, as measured at its own UTC offset.
    public struct Reading: Equatable, Sendable {
        /// Days since 1970-01-01 of the local calendar day it was taken on.
        public var day: Int
        public var lnRMSSD: Double
        /// Seconds east of UTC where it was taken; nil when unknown (older records).
        public var utcOffset: Int?

        public init(day: Int, lnRMSSD: Double, utcOffset: Int? = nil) {
            self.day = day
            self.lnRMSSD = lnRMSSD
            self.utcOffset = utcOffset
        }
    }

    /// Mean and spread of ln RMSSD over some days: sample SD (N − 1), and the coefficient of
    /// variation SD / mean in percent, as Plews et al. (2012) took it of ln rMSSD.
    public struct Spread: Equatable, Sendable {
        public var mean: Double
        public var sd: Double
        public var days: Int
        public var cvPercent: Double { 100 * sd / mean }

        init?(_ values: [Double]) {
            guard values.count >= 2 else { return nil }
            let n = Double(values.count)
            mean = values.reduce(0, +) / n
            let m = mean
            sd = (values.reduce(0) { $0 + ($1 - m) * ($1 - m) } / (n - 1)).squareRoot()
            days = values.count
        }

        /// mean ± `width` SD.
        public func band(width: Double) -> ClosedRange<Double> { (mean - width * sd)...(mean + width * sd) }
    }

    public enum Change: String, Sendable {
        case below, above
    }

    /// What a day says, as the readiness apps put it: the week first, then the day itself.
    public enum Verdict: String, Sendable {
        /// Too few days for a normal range yet.
        case noRange = "no_range"
        /// The 7-day mean below (above) the normal range: a change that lasts.
        case weekBelow = "week_below"
        case weekAbove = "week_above"
        /// The week within the range (or too short to judge), the day's own value outside it.
        case dayBelow = "day_below"
        case dayAbove = "day_above"
        case withinRange = "within_range"
    }

    public struct Day: Equatable, Sendable {
        public var day: Int
        /// The day's own value; nil on a day without a measurement.
        public var lnRMSSD: Double?
        /// The 7 days ending with this one (those present), once `minimumWeekDays` are.
        public var week: Spread?
        /// The `rangeDays` days before this one, once `minimumRangeDays` are present.
        public var normal: Spread?
        /// How many of the `rangeDays` days before this one have a value.
        public var normalDays = 0
        /// The UTC offset the day was measured at, and the previous measured day's when it differs.
        public var utcOffset: Int?
        public var previousUTCOffset: Int?

        /// The normal range: mean ± 1 SD of the daily values of the 60 days before.
        public var range: ClosedRange<Double>? { normal?.band(width: ReadinessTrend.rangeWidth) }

        /// The normal range as RMSSD, ms, the scale people read.
        public var rangeRMSSD: ClosedRange<Double>? { range.map { Double.exp($0.lowerBound)...Double.exp($0.upperBound) } }

        /// The 7-day mean outside the normal range: a change that lasts, not one low morning.
        public var change: Change? {
            guard let mean = week?.mean, let range else { return nil }
            if mean < range.lowerBound { return .below }
            if mean > range.upperBound { return .above }
            return nil
        }

        /// The day's own value outside the normal range (shown, never marked: one morning in
        /// three is, for anyone).
        public var todayChange: Change? {
            guard let lnRMSSD, let range else { return nil }
            if lnRMSSD < range.lowerBound { return .below }
            if lnRMSSD > range.upperBound { return .above }
            return nil
        }

        public var verdict: Verdict {
            guard range != nil else { return .noRange }
            switch (change, todayChange) {
            case (.below, _): return .weekBelow
            case (.above, _): return .weekAbove
            case (nil, .below): return .dayBelow
            case (nil, .above): return .dayAbove
            case (nil, nil): return .withinRange
            }
        }
    }

    /// Days in the rolling window, and how many of them must have a value: means of 3 or more
    /// days of a week gave changes and correlations with performance close to all 7's
    /// (Plews et al. 2014).
    public static let weekDays = 7
    public static let minimumWeekDays = 3
    /// Days before a day whose values make its normal range (HRV4Training: the past 60 days),
    /// and how many of them must have a value before a range is given (about two weeks, the
    /// time Elite HRV says its baseline takes to form).
    public static let rangeDays = 60
    public static let minimumRangeDays = 14
    /// Half-width of the normal range in SDs of the daily values.
    public static let rangeWidth = 1.0

    /// The days `first...last` (ordinals), each with its week and normal range. `readings` may
    /// hold one value per day at most, in any order, and may reach before `first`.
    public static func days(_ readings: [Reading], from first: Int, through last: Int) -> [Day] {
        guard first <= last else { return [] }
        let byDay = Dictionary(readings.map { ($0.day, $0) }, uniquingKeysWith: { _, later in later })
        func values(_ days: ClosedRange<Int>) -> [Double] { days.compactMap { byDay[$0]?.lnRMSSD } }
        var previousOffset = byDay.keys.filter { $0 < first }.max().flatMap { byDay[$0]?.utcOffset }
        return (first...last).map { day in
            let reading = byDay[day]
            let week = values((day - weekDays + 1)...day)
            let before = values((day - rangeDays)...(day - 1))
            var result = Day(
                day: day, lnRMSSD: reading?.lnRMSSD,
                week: week.count >= minimumWeekDays ? Spread(week) : nil,
                normal: before.count >= minimumRangeDays ? Spread(before) : nil, normalDays: before.count,
                utcOffset: reading?.utcOffset)
            if let offset = reading?.utcOffset {
                if let previousOffset, previousOffset != offset { result.previousUTCOffset = previousOffset }
                previousOffset = offset
            }
            return result
        }
    }
}
