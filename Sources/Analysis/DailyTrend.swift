import HRV
import SessionLog

/// One calendar day of `hrvmon history`: its resting values against the personal normal range of
/// the days before it, and the stress minutes of its sessions.
public struct DailyTrend: Equatable {
    public var day: String
    public var lnRMSSD: Double?
    public var restingHR: Double?
    /// Whether the day's value is its morning check (`hrvmon check`) rather than sessions' calibrations.
    public var isCheck = false
    /// The long view: the 7-day rolling mean and CV, the normal range of the 60 days before.
    public var readiness: ReadinessTrend.Day?
    /// The personal baseline from the days before this one; nil with too few of them.
    public var normal: Baseline?
    public var stressMinutes: Double
    public var sessions: Int
    /// The mean mood (1–5) of the day's check-ins, and how many there were.
    public var mood: Double? = nil
    public var checkIns = 0

    public typealias Change = ReadinessTrend.Change

    /// Resting heart rate this far from the usual counts as a change, bpm.
    public static let heartRateMargin = 5.0

    /// ln RMSSD outside the normal band (mean ± SD of the days before).
    public var lnRMSSDChange: Change? {
        guard let lnRMSSD, let normal else { return nil }
        if lnRMSSD < normal.lnRMSSDMean - normal.lnRMSSDSD { return .below }
        if lnRMSSD > normal.lnRMSSDMean + normal.lnRMSSDSD { return .above }
        return nil
    }

    public var restingHRChange: Change? {
        guard let restingHR, let normal else { return nil }
        if restingHR < normal.restingHR - Self.heartRateMargin { return .below }
        if restingHR > normal.restingHR + Self.heartRateMargin { return .above }
        return nil
    }

    /// The `days` days up to `today`, oldest first; `moods`: each check-in's local day and mood.
    public static func days(
        _ days: Int, today: String, history: BaselineHistory, sessions: [(day: String, stressMinutes: Double)],
        moods: [(day: String, mood: Int)] = [], baselineDays: Int, minimumDays: Int, minimumSD: Double
    ) -> [DailyTrend] {
        guard let last = CalendarDay(today) else { return [] }
        let measured = Dictionary(uniqueKeysWithValues: history.daily(days: days, today: today).map { ($0.day, $0) })
        let readiness = Dictionary(uniqueKeysWithValues: history.readiness(days: days, today: today).map { (CalendarDay(ordinal: $0.day).text, $0) })
        return (0..<days).reversed().compactMap { offset -> DailyTrend? in
            guard let day = last.adding(days: -offset)?.text else { return nil }
            let previous = CalendarDay(day)?.adding(days: -1)?.text ?? day
            let daySessions = sessions.filter { $0.day == day }
            let dayMoods = moods.filter { $0.day == day }.map(\.mood)
            return DailyTrend(
                day: day, lnRMSSD: measured[day]?.lnRMSSD, restingHR: measured[day]?.restingHR,
                isCheck: measured[day]?.isCheck ?? false, readiness: readiness[day],
                normal: history.baseline(days: baselineDays, minimumDays: minimumDays, minimumSD: minimumSD, today: previous),
                stressMinutes: daySessions.reduce(0) { $0 + $1.stressMinutes }, sessions: daySessions.count,
                mood: dayMoods.isEmpty ? nil : Double(dayMoods.reduce(0, +)) / Double(dayMoods.count), checkIns: dayMoods.count)
        }
    }
}
