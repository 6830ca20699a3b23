import Platform
import Presentation
import SessionLog

/// Calendar facts of an instant in the user's time zone (the `TZ` the report is made in), for the
/// report's clock axes, hour cells and headings.
public enum LocalTime {
    /// Seconds east of UTC at `unixSeconds` (daylight saving time included).
    public static func offset(at unixSeconds: Double) -> Double { Double(WallClock.local(unixSeconds).tm_gmtoff) }

    /// The start of the local hour that contains `unixSeconds`.
    public static func hourStart(_ unixSeconds: Double) -> Double {
        let offset = offset(at: unixSeconds)
        return ((unixSeconds + offset) / 3600).rounded(.down) * 3600 - offset
    }

    /// 0–23.
    public static func hour(_ unixSeconds: Double) -> Int { Int(WallClock.local(unixSeconds).tm_hour) }

    /// `UTC+01:00`.
    public static func offsetName(at unixSeconds: Double) -> String { Formatting.utcOffset(Int(offset(at: unixSeconds))) }

    /// `Saturday 21 November 2026`.
    public static func longDate(_ unixSeconds: Double) -> String {
        let parts = WallClock.local(unixSeconds)
        return "\(weekdays[Int(parts.tm_wday)]) \(parts.tm_mday) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900)"
    }

    /// `Sat 21 Nov`, or `Sat 21` without the month (a calendar day needs no time zone).
    public static func shortDate(_ day: CalendarDay, month: Bool = true) -> String {
        // 1970-01-01 was a Thursday.
        let weekday = ((day.ordinal % 7) + 7 + 4) % 7
        return "\(weekdays[weekday].prefix(3)) \(day.day)" + (month ? " \(months[day.month - 1].prefix(3))" : "")
    }

    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
}
