import Foundation
import HRV
import SessionLog
import Testing

@Suite struct BaselineHistoryTests {
    func history(_ values: [(String, Double, Double)]) -> BaselineHistory {
        var history = BaselineHistory()
        for (day, ln, hr) in values { history.record(RestingMeasurement(day: day, lnRMSSD: ln, restingHR: hr, source: "test")) }
        return history
    }

    @Test func rollingSevenDayMeanAndSpread() throws {
        let days: [(String, Double, Double)] = (1...10).map { (index: Int) -> (String, Double, Double) in
            let day = index < 10 ? "0\(index)" : "\(index)"
            return ("2026-11-\(day)", 3.5 + 0.1 * Double(index % 3), 60 + Double(index))
        }
        let baseline = try #require(history(days).baseline(days: 7, minimumDays: 3, minimumSD: 0.01, today: "2026-11-10"))
        // Days 4…10: ln RMSSD 3.6 3.7 3.5 3.6 3.7 3.5 3.6, HR 64…70.
        let ln = [3.6, 3.7, 3.5, 3.6, 3.7, 3.5, 3.6]
        let mean = ln.reduce(0, +) / 7
        let sd = (ln.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 6).squareRoot()
        #expect(abs(baseline.lnRMSSDMean - mean) < 1e-12)
        #expect(abs(baseline.lnRMSSDSD - sd) < 1e-12)
        #expect(baseline.restingHR == 67)
        #expect(baseline.samples == 7)
        #expect(baseline.source == Baseline.Source.personal)
    }

    @Test func notEnoughDaysGivesNoBaseline() {
        let two = history([("2026-11-09", 3.5, 60), ("2026-11-10", 3.6, 61)])
        #expect(two.baseline(days: 7, minimumDays: 3, minimumSD: 0.1, today: "2026-11-10") == nil)
        // Old days fall out of the window.
        let old = history([("2026-10-01", 3.5, 60), ("2026-10-02", 3.6, 61), ("2026-11-10", 3.6, 61)])
        #expect(old.baseline(days: 7, minimumDays: 3, minimumSD: 0.1, today: "2026-11-10") == nil)
        #expect(old.daily(days: 7, today: "2026-11-10").map(\.day) == ["2026-11-10"])
    }

    @Test func spreadNeverBelowTheFloorAndOneValuePerDayAndSource() throws {
        var same = history([("2026-11-08", 3.5, 60), ("2026-11-09", 3.5, 60), ("2026-11-10", 3.5, 60)])
        same.record(RestingMeasurement(day: "2026-11-10", lnRMSSD: 3.8, restingHR: 58, source: "test"))  // replaces
        #expect(same.measurements.count == 3)
        let baseline = try #require(same.baseline(days: 7, minimumDays: 3, minimumSD: 0.15, today: "2026-11-10"))
        #expect(baseline.lnRMSSDSD >= 0.15)
        #expect(abs(baseline.lnRMSSDMean - 3.6) < 1e-12)
    }

    @Test func codableRoundTripWithDocumentedKeys() throws {
        let original = history([("2026-11-10", 3.5, 60)])
        let data = try JSONEncoder().encode(original)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"ln_rmssd\":3.5"))
        #expect(text.contains("\"resting_hr_bpm\":60"))
        #expect(try JSONDecoder().decode(BaselineHistory.self, from: data) == original)
    }

    /// A baseline.json written before the long view (no kind, t or utc_offset_s) loads as it
    /// was, judges its days as session values, and is written back with no new keys.
    @Test func filesWrittenBeforeTheLongViewStillLoad() throws {
        let old = """
            {"measurements":[{"day":"2026-11-09","ln_rmssd":3.6,"resting_hr_bpm":61,"source":"20261109-071500"},\
            {"day":"2026-11-10","ln_rmssd":3.5,"resting_hr_bpm":60,"source":"20261110-070000"}],"version":1}
            """
        let history = try JSONDecoder().decode(BaselineHistory.self, from: Data(old.utf8))
        #expect(history.measurements.map(\.source) == ["20261109-071500", "20261110-070000"])
        #expect(history.measurements.allSatisfy { $0.kind == nil && $0.time == nil && $0.utcOffset == nil })
        #expect(history.daily(days: 2, today: "2026-11-10").map(\.isCheck) == [false, false])
        #expect(history.readiness(days: 1, today: "2026-11-10").first?.utcOffset == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let written = String(decoding: try encoder.encode(history), as: UTF8.self)
        #expect(written == old, "\(written)")
    }

    /// A morning check carries its kind, time and offset; they survive a save.
    @Test func checkRecordsRoundTrip() throws {
        var history = BaselineHistory()
        history.record(RestingMeasurement(day: "2026-11-10", lnRMSSD: 3.9, restingHR: 55, source: "check", kind: .check, time: 1_794_290_400, utcOffset: 3600))
        let text = String(decoding: try JSONEncoder().encode(history), as: UTF8.self)
        #expect(text.contains("\"kind\":\"check\"") && text.contains("\"utc_offset_s\":3600") && text.contains("\"t\":1794290400"))
        #expect(try JSONDecoder().decode(BaselineHistory.self, from: Data(text.utf8)) == history)
        #expect(history.check(on: "2026-11-10")?.lnRMSSD == 3.9)
    }

    @Test func calendarDays() throws {
        #expect(CalendarDay("2024-02-29")?.adding(days: 1)?.text == "2024-03-01")
        #expect(CalendarDay("2026-01-03")?.adding(days: -6)?.text == "2025-12-28")
        #expect(CalendarDay("1970-01-01")?.ordinal == 0)
        #expect(CalendarDay("2026-02-29") == nil)
        #expect(CalendarDay("2026-13-01") == nil)
        #expect(CalendarDay("26-11-10") == nil)
        for ordinal in stride(from: -300_000, through: 2_900_000, by: 997) {  // years 1148…9909
            #expect(CalendarDay(CalendarDay(ordinal: ordinal).text)?.ordinal == ordinal)
        }
    }
}
