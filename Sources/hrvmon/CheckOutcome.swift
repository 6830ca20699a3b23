import HRV
import Presentation
import SessionLog
import UserData

/// What `hrvmon check` measured and what it says, for people and as JSON.
struct CheckOutcome {
    var measurement: RestingMeasurement
    var result: MorningCheck.Result
    /// The day with this check in it, and the day a week before (for the CV's trend).
    var today: ReadinessTrend.Day
    var weekBefore: ReadinessTrend.Day
    /// The same day's earlier check, replaced.
    var replaced: RestingMeasurement?
    var kept: Bool

    private func band(_ range: ClosedRange<Double>) -> String {
        Formatting.fixed(range.lowerBound, digits: 2) + "–" + Formatting.fixed(range.upperBound, digits: 2)
    }

    /// The verdict in words: the week first (a lasting change), then the day itself.
    var verdict: String {
        switch today.verdict {
        case .noRange:
            "no verdict yet: a normal range needs morning values on \(ReadinessTrend.minimumRangeDays) of the " +
                "\(ReadinessTrend.rangeDays) days before today (\(today.normalDays) so far); keep checking each morning"
        case .weekBelow:
            "your 7-day mean is below your normal range: a lasting drop (fatigue, illness, poor sleep, stress) — favour recovery"
        case .weekAbove:
            "your 7-day mean is above your normal range: unusual for you; usually good, but watch for a drop after it"
        case .dayBelow:
            "your week is within your normal range; today's value is below it — one low morning is not a trend"
        case .dayAbove:
            "your week is within your normal range; today's value is above it"
        case .withinRange:
            "within your normal range"
        }
    }

    var text: String {
        var lines = [
            "ln RMSSD \(Formatting.fixed(result.lnRMSSD, digits: 2)) (RMSSD \(Formatting.fixed(result.rmssd, digits: 1)) ms), "
                + "resting HR \(Formatting.fixed(result.heartRate, digits: 0)) bpm; \(Formatting.count(result.beats, "beat")), "
                + "\(Formatting.fixed(result.correctedPercent, digits: 1)) % corrected",
        ]
        if let week = today.week {
            var line = "7-day mean \(Formatting.fixed(week.mean, digits: 2)) (\(week.days) of 7 days), CV \(Formatting.fixed(week.cvPercent, digits: 1)) %"
            if let earlier = weekBefore.week {
                line += week.cvPercent > earlier.cvPercent
                    ? ", up from \(Formatting.fixed(earlier.cvPercent, digits: 1)) % a week ago (less stable)"
                    : ", down from \(Formatting.fixed(earlier.cvPercent, digits: 1)) % a week ago"
            }
            lines.append(line)
        }
        if let range = today.range, let milliseconds = today.rangeRMSSD, let normal = today.normal {
            lines.append("normal range \(band(range)) (RMSSD \(Formatting.fixed(milliseconds.lowerBound, digits: 0))–"
                + "\(Formatting.fixed(milliseconds.upperBound, digits: 0)) ms), from \(normal.days) of the last \(ReadinessTrend.rangeDays) days")
        }
        lines.append("verdict: " + verdict)
        let offset = measurement.utcOffset.map { " (\(Formatting.utcOffset($0)))" } ?? ""
        if kept {
            lines.append("kept as \(measurement.day)'s morning value\(offset) in \(DataDirectory.baselineFile)")
        } else {
            lines.append("not kept (--dry-run)")
        }
        if let replaced {
            let when = replaced.utcOffset.map { " taken at \(Formatting.utcOffset($0))" } ?? ""
            lines.append("this replaces the check of \(replaced.day)\(when), ln RMSSD \(Formatting.fixed(replaced.lnRMSSD, digits: 2))"
                + (replaced.utcOffset != measurement.utcOffset ? " — a new time zone: the same local day measured twice" : ""))
        }
        if let before = today.previousUTCOffset, let now = today.utcOffset {
            lines.append("time zone changed since the last measured day: \(Formatting.utcOffset(before)) → \(Formatting.utcOffset(now)); "
                + "days are local calendar days, and a day skipped by travel stays empty")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var json: String {
        var object = JSONObject()
        object.add(cells: [
            ("day", .text(measurement.day)),
            ("t", .number(measurement.time)),
            ("utc_offset_s", .integer(measurement.utcOffset)),
            ("rmssd_ms", .number(result.rmssd)),
            ("ln_rmssd", .number(result.lnRMSSD)),
            ("resting_hr_bpm", .number(result.heartRate)),
            ("beats", .integer(result.beats)),
            ("corrected_pct", .number(result.correctedPercent)),
            ("ln_rmssd_7d_mean", .number(today.week?.mean)),
            ("ln_rmssd_7d_cv_pct", .number(today.week?.cvPercent)),
            ("ln_rmssd_7d_days", .integer(today.week?.days)),
            ("range_ln_rmssd_low", .number(today.range?.lowerBound)),
            ("range_ln_rmssd_high", .number(today.range?.upperBound)),
            ("range_days", .integer(today.normal?.days)),
            ("verdict", .text(today.verdict.rawValue)),
            ("kept", .flag(kept)),
            ("replaced_day", .text(replaced?.day)),
        ])
        return object.serialized + "\n"
    }
}
