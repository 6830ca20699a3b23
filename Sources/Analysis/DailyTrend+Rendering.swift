import HRV
import Presentation
import SessionLog

/// `hrvmon history` in its formats: a chart and table for people, JSON and CSV with one set of keys.
extension DailyTrend {
    public static func text(_ trend: [DailyTrend]) -> String {
        guard let first = trend.first, let last = trend.last else { return "" }
        func value(_ number: Double?, _ digits: Int, _ unit: String = "") -> String {
            number.map { Formatting.fixed($0, digits: digits) + unit } ?? "–"
        }
        func flag(_ change: DailyTrend.Change?) -> String {
            switch change {
            case .below: " ↓"
            case .above: " ↑"
            case nil: ""
            }
        }
        var text = "\(first.day) – \(last.day), oldest left\n"
        func chart(_ values: [Double?]) -> String {
            Sparkline.line(values, missing: "·")?.chart ?? String(repeating: "·", count: values.count)
        }
        text += Formatting.columns([
            ["ln RMSSD", chart(trend.map(\.lnRMSSD))],
            ["resting HR", chart(trend.map(\.restingHR))],
            ["stress", chart(trend.map { $0.sessions > 0 ? $0.stressMinutes : nil })],
        ])
        text += "\n"
        func normalBand(_ baseline: Baseline?) -> String {
            guard let baseline else { return "–" }
            let low = Formatting.fixed(baseline.lnRMSSDMean - baseline.lnRMSSDSD, digits: 2)
            let high = Formatting.fixed(baseline.lnRMSSDMean + baseline.lnRMSSDSD, digits: 2)
            return low + "–" + high
        }
        var rows: [[String]] = []
        for day in trend.reversed() where day.lnRMSSD != nil || day.sessions > 0 {
            let stress = day.sessions > 0 ? Formatting.fixed(day.stressMinutes, digits: 0) + " min" : "–"
            rows.append([
                day.day, value(day.lnRMSSD, 2) + flag(day.lnRMSSDChange), normalBand(day.normal),
                value(day.restingHR, 0, " bpm") + flag(day.restingHRChange), stress, String(day.sessions),
            ])
        }
        guard !rows.isEmpty else { return text + "no resting measurements or sessions in these days\n" }
        text += Formatting.columns([["DAY", "LN RMSSD", "NORMAL", "RESTING HR", "STRESS", "SESSIONS"]] + rows)
        let changes = trend.filter { $0.lnRMSSDChange != nil || $0.restingHRChange != nil }
        for day in changes {
            var said: [String] = []
            if let change = day.lnRMSSDChange { said.append("ln RMSSD \(change.rawValue) your normal range") }
            if let change = day.restingHRChange { said.append("resting HR \(change.rawValue) your usual") }
            text += "\(day.day): \(said.joined(separator: "; "))\n"
        }
        if trend.allSatisfy({ $0.normal == nil }) {
            text += "no normal range yet: it needs resting values on at least a few days (see `hrvmon baseline`)\n"
        }
        return text
    }

    /// A day's values, in order: the JSON keys and the CSV columns.
    public static func cells(_ day: DailyTrend) -> [(String, TableCell)] {
        [
            ("day", .text(day.day)),
            ("ln_rmssd", .number(day.lnRMSSD)),
            ("resting_hr_bpm", .number(day.restingHR)),
            ("normal_ln_rmssd_low", .number(day.normal.map { $0.lnRMSSDMean - $0.lnRMSSDSD })),
            ("normal_ln_rmssd_high", .number(day.normal.map { $0.lnRMSSDMean + $0.lnRMSSDSD })),
            ("normal_resting_hr_bpm", .number(day.normal?.restingHR)),
            ("ln_rmssd_change", .text(day.lnRMSSDChange?.rawValue)),
            ("resting_hr_change", .text(day.restingHRChange?.rawValue)),
            ("stress_min", .number(day.stressMinutes)),
            ("sessions", .integer(day.sessions)),
        ]
    }

    public static func json(_ trend: [DailyTrend]) -> String {
        "[" + trend.map { day in
            var object = JSONObject()
            object.add(cells: cells(day))
            return object.serialized
        }.joined(separator: ",") + "]\n"
    }

    /// Oldest day first, as in JSON.
    public static func csv(_ trend: [DailyTrend]) -> String {
        guard let first = trend.first else { return "" }
        let header = cells(first).map(\.0).joined(separator: ",")
        return ([header] + trend.map { cells($0).map(\.1.csv).joined(separator: ",") }).joined(separator: "\n") + "\n"
    }
}
