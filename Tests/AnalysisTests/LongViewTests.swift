import Analysis
import Foundation
import HRV
import SessionLog
import TestSupport
import Testing

/// `history`'s long view (7-day rolling mean and CV, the 60-day normal range, marked days) on the
/// generated 90-day histories of make_readiness_reference.py, against its numpy recomputation.
@Suite struct LongViewTests {
    struct Reference: Decodable {
        var histories: [History]

        struct History: Decodable {
            var name: String
            var today: String
            var days: Int
            var records: [RestingMeasurement]
            var drop: [String]?
            var reference: [Day]
        }

        struct Day: Decodable {
            var day: String
            var ln_rmssd: Double?
            var week_mean, week_sd, week_cv_pct: Double?
            var week_days, range_days: Int
            var range_mean, range_sd, range_low, range_high: Double?
            var change: String?
            var utc_offset_s, previous_utc_offset_s: Int?
        }
    }

    static let reference: Reference = {
        let data = try! Data(contentsOf: Fixture.url("readiness_reference.json"))
        return try! JSONDecoder().decode(Reference.self, from: data)
    }()

    static func trend(_ history: Reference.History) -> [DailyTrend] {
        var stored = BaselineHistory()
        for record in history.records { stored.record(record) }
        return DailyTrend.days(
            history.days, today: history.today, history: stored, sessions: [], baselineDays: 7, minimumDays: 3, minimumSD: 0.2)
    }

    func close(_ value: Double?, _ expected: Double?, _ what: String, _ day: String) {
        switch (value, expected) {
        case (nil, nil): break
        case (let value?, let expected?): #expect(abs(value - expected) < 1e-12, "\(day) \(what): \(value) vs numpy \(expected)")
        default: Issue.record("\(day) \(what): \(String(describing: value)) vs numpy \(String(describing: expected))")
        }
    }

    @Test func everyDayMatchesTheNumpyRecomputation() {
        for history in Self.reference.histories {
            let trend = Self.trend(history)
            #expect(trend.map(\.day) == history.reference.map(\.day), "\(history.name)")
            for (day, expected) in zip(trend, history.reference) {
                let readiness = day.readiness
                close(day.lnRMSSD, expected.ln_rmssd, "ln RMSSD", day.day)
                close(readiness?.week?.mean, expected.week_mean, "7-day mean", day.day)
                close(readiness?.week?.sd, expected.week_sd, "7-day SD", day.day)
                close(readiness?.week?.cvPercent, expected.week_cv_pct, "7-day CV", day.day)
                close(readiness?.normal?.mean, expected.range_mean, "range mean", day.day)
                close(readiness?.normal?.sd, expected.range_sd, "range SD", day.day)
                close(readiness?.range?.lowerBound, expected.range_low, "range low", day.day)
                close(readiness?.range?.upperBound, expected.range_high, "range high", day.day)
                #expect(readiness?.normalDays == expected.range_days, "\(history.name) \(day.day)")
                #expect(readiness?.week.map(\.days) ?? expected.week_days == expected.week_days, "\(history.name) \(day.day)")
                #expect(readiness?.change?.rawValue == expected.change, "\(history.name) \(day.day)")
                #expect(readiness?.utcOffset == expected.utc_offset_s, "\(history.name) \(day.day)")
                #expect(readiness?.previousUTCOffset == expected.previous_utc_offset_s, "\(history.name) \(day.day)")
            }
        }
    }

    /// A stable person (independent days, SD 0.15) is almost never marked: the 7-day mean's SD is
    /// σ/√7, so it leaves mean ± 1σ on about 2·Φ(−√7) ≈ 0.8 % of days.
    @Test func stableHistoriesAreAlmostNeverMarked() {
        var judged = 0, marked = 0
        for history in Self.reference.histories where history.name.hasPrefix("stable") {
            let trend = Self.trend(history)
            judged += trend.filter { $0.readiness?.range != nil && $0.readiness?.week != nil }.count
            let days = trend.filter { $0.readiness?.change != nil }
            marked += days.count
            #expect(days.count <= 1, "\(history.name): \(days.map(\.day))")
            // Single mornings outside the range are common and never marked.
            #expect(trend.filter { $0.readiness?.todayChange != nil }.count > 10, "\(history.name)")
        }
        #expect(judged > 1400)
        #expect(Double(marked) / Double(judged) < 0.01, "\(marked) of \(judged) days marked")
    }

    /// The injected drop (0.6 ln units for 8 days) is marked, below, and nothing outside it and
    /// the week after it is.
    @Test func injectedDropIsMarkedAndNothingElse() throws {
        let history = try #require(Self.reference.histories.first { $0.name == "travel" })
        let drop = try #require(history.drop)
        let trend = Self.trend(history)
        let last = try #require(CalendarDay(drop[1])?.adding(days: 6)?.text)
        let marked = trend.filter { $0.readiness?.change != nil }
        #expect(marked.allSatisfy { $0.day >= drop[0] && $0.day <= last && $0.readiness?.change == .below }, "\(marked.map(\.day))")
        let inDrop = marked.filter { $0.day <= drop[1] }
        #expect(inDrop.count >= 6, "\(marked.map(\.day))")
        #expect(inDrop.allSatisfy { $0.readiness?.verdict == .weekBelow })
        let text = DailyTrend.text(trend)
        #expect(text.contains("\(drop[1]): 7-day mean ln RMSSD"), "\(text)")
    }

    /// The flight east loses a local day: it stays empty, and the next day names the change.
    @Test func aFlightIsNamedAndItsLostDayStaysEmpty() throws {
        let history = try #require(Self.reference.histories.first { $0.name == "travel" })
        let trend = Self.trend(history)
        let landed = try #require(trend.firstIndex { $0.readiness?.previousUTCOffset != nil })
        #expect(trend[landed].readiness?.previousUTCOffset == -5 * 3600 && trend[landed].readiness?.utcOffset == 9 * 3600)
        #expect(trend[landed - 1].lnRMSSD == nil)
        #expect(trend.filter { $0.readiness?.previousUTCOffset != nil }.count == 1)
        #expect(DailyTrend.text(trend).contains("\(trend[landed].day): measured at UTC+09:00, the measured day before at UTC−05:00"))
    }

    /// A day's morning check is its value, not its sessions; of two checks, the later.
    @Test func theMorningCheckIsTheDaysValue() throws {
        let history = try #require(Self.reference.histories.first { $0.name == "travel" })
        var stored = BaselineHistory()
        for record in history.records { stored.record(record) }
        let day = try #require(history.records.first { $0.source == "check-early" }?.day)
        let values = stored.daily(days: 1, today: day)
        let later = try #require(history.records.first { $0.day == day && $0.source == "check" })
        #expect(values.first?.lnRMSSD == later.lnRMSSD && values.first?.isCheck == true)
        let sessionsOnly = try #require(history.records.first { $0.kind == nil }?.day)
        #expect(stored.daily(days: 1, today: sessionsOnly).first?.isCheck == false)
    }

    /// `history --format json` keeps every key it had, in order, and adds the long view's after them.
    @Test func jsonKeysAreAdditive() throws {
        let history = try #require(Self.reference.histories.first)
        let day = try #require(Self.trend(history).last)
        let keys = DailyTrend.cells(day).map(\.0)
        #expect(Array(keys.prefix(10)) == [
            "day", "ln_rmssd", "resting_hr_bpm", "normal_ln_rmssd_low", "normal_ln_rmssd_high", "normal_resting_hr_bpm",
            "ln_rmssd_change", "resting_hr_change", "stress_min", "sessions",
        ])
        for key in ["morning_check", "ln_rmssd_7d_mean", "ln_rmssd_7d_cv_pct", "range_ln_rmssd_low", "range_ln_rmssd_high", "range_change", "utc_offset_s"] {
            #expect(keys.contains(key), "\(key)")
        }
    }
}
