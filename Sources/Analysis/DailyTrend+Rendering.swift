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
            ["7-day mean", chart(trend.map(\.readiness?.week?.mean))],
            ["resting HR", chart(trend.map(\.restingHR))],
            ["stress", chart(trend.map { $0.sessions > 0 ? $0.stressMinutes : nil })],
        ] + (trend.contains { $0.mood != nil } ? [["mood", chart(trend.map(\.mood))]] : []))
        text += "\n"
        func band(_ range: ClosedRange<Double>?) -> String {
            range.map { Formatting.fixed($0.lowerBound, digits: 2) + "–" + Formatting.fixed($0.upperBound, digits: 2) } ?? "–"
        }
        var rows: [[String]] = []
        let moods = trend.contains { $0.mood != nil }
        for day in trend.reversed() where day.lnRMSSD != nil || day.sessions > 0 || day.readiness?.week != nil || day.checkIns > 0 {
            let stress = day.sessions > 0 ? Formatting.fixed(day.stressMinutes, digits: 0) + " min" : "–"
            let week = day.readiness?.week
            rows.append([
                day.day, value(day.lnRMSSD, 2), day.lnRMSSD == nil ? "" : day.isCheck ? "check" : "sessions",
                value(week?.mean, 2) + flag(day.readiness?.change), value(week?.cvPercent, 1, " %"), band(day.readiness?.range),
                value(day.restingHR, 0, " bpm") + flag(day.restingHRChange), stress, String(day.sessions),
            ] + (moods ? [day.mood.map { Formatting.fixed($0, digits: 1) + " (\(day.checkIns))" } ?? "–"] : []))
        }
        guard !rows.isEmpty else { return text + "no resting measurements or sessions in these days\n" }
        text += Formatting.columns([["DAY", "LN RMSSD", "FROM", "7-DAY MEAN", "CV", "NORMAL (60 D)", "RESTING HR", "STRESS", "SESSIONS"] + (moods ? ["MOOD (CHECK-INS)"] : [])] + rows)
        for day in trend {
            var said: [String] = []
            if let change = day.readiness?.change, let mean = day.readiness?.week?.mean {
                // Three decimals: a mean just outside the range must not read as equal to its edge.
                let range = day.readiness?.range.map { Formatting.fixed($0.lowerBound, digits: 3) + "–" + Formatting.fixed($0.upperBound, digits: 3) } ?? ""
                said.append("7-day mean ln RMSSD \(Formatting.fixed(mean, digits: 3)) \(change.rawValue) your normal range \(range)")
            }
            if let change = day.restingHRChange { said.append("resting HR \(change.rawValue) your usual") }
            if let now = day.readiness?.utcOffset, let before = day.readiness?.previousUTCOffset {
                said.append("measured at \(Formatting.utcOffset(now)), the measured day before at \(Formatting.utcOffset(before))")
            }
            if !said.isEmpty { text += "\(day.day): \(said.joined(separator: "; "))\n" }
        }
        text += summary(trend)
        return text
    }

    /// Where the last day stands: its week against the normal range, and the CV's trend.
    static func summary(_ trend: [DailyTrend]) -> String {
        guard let last = trend.last?.readiness else { return "" }
        guard let normal = last.normal, let range = last.range, let milliseconds = last.rangeRMSSD else {
            return "no normal range yet: it needs resting values on \(ReadinessTrend.minimumRangeDays) of the " +
                "\(ReadinessTrend.rangeDays) days before a day (see `hrvmon check`)\n"
        }
        var text = "normal range \(Formatting.fixed(range.lowerBound, digits: 2))–\(Formatting.fixed(range.upperBound, digits: 2)) " +
            "(RMSSD \(Formatting.fixed(milliseconds.lowerBound, digits: 0))–\(Formatting.fixed(milliseconds.upperBound, digits: 0)) ms): " +
            "mean ± SD of \(Formatting.count(normal.days, "day")) of the last \(ReadinessTrend.rangeDays)"
        if let week = last.week {
            let verdict = last.change.map { "\($0.rawValue) it" } ?? "within it"
            text += "; 7-day mean \(Formatting.fixed(week.mean, digits: 2)) (\(week.days) of 7 days) \(verdict), CV \(Formatting.fixed(week.cvPercent, digits: 1)) %"
            if trend.count > 7, let earlier = trend[trend.count - 8].readiness?.week {
                let direction = week.cvPercent > earlier.cvPercent ? "up" : "down"
                text += " (\(direction) from \(Formatting.fixed(earlier.cvPercent, digits: 1)) % a week before)"
            }
        }
        return text + "\n"
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
            ("morning_check", .flag(day.isCheck)),
            ("mood_mean", .number(day.mood)),
            ("checkins", .integer(day.checkIns)),
            ("ln_rmssd_7d_mean", .number(day.readiness?.week?.mean)),
            ("ln_rmssd_7d_sd", .number(day.readiness?.week?.sd)),
            ("ln_rmssd_7d_cv_pct", .number(day.readiness?.week?.cvPercent)),
            ("ln_rmssd_7d_days", .integer(day.readiness?.week?.days)),
            ("range_ln_rmssd_mean", .number(day.readiness?.normal?.mean)),
            ("range_ln_rmssd_sd", .number(day.readiness?.normal?.sd)),
            ("range_ln_rmssd_low", .number(day.readiness?.range?.lowerBound)),
            ("range_ln_rmssd_high", .number(day.readiness?.range?.upperBound)),
            ("range_days", .integer(day.readiness?.normal?.days)),
            ("range_change", .text(day.readiness?.change?.rawValue)),
            ("utc_offset_s", .integer(day.readiness?.utcOffset)),
            ("previous_utc_offset_s", .integer(day.readiness?.previousUTCOffset)),
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
