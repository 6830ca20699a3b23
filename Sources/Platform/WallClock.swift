import Glibc

/// Wall-clock time, for timestamps the user reads and for `t` in JSON Lines.
public enum WallClock {
    /// Unix seconds with sub-millisecond resolution.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `HH:MM:SS` in local time.
    public static func timeOfDay(_ unixSeconds: Double) -> String {
        let parts = local(unixSeconds)
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// `YYYY-MM-DD` in local time.
    public static func day(_ unixSeconds: Double) -> String {
        let parts = local(unixSeconds)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }

    /// Seconds east of UTC of the local time zone at that instant (daylight saving included).
    public static func utcOffset(_ unixSeconds: Double) -> Int { Int(local(unixSeconds).tm_gmtoff) }

    /// ISO 8601 local time with its UTC offset: `2026-11-21T10:15:00+01:00`.
    public static func iso8601(_ unixSeconds: Double) -> String {
        let parts = local(unixSeconds)
        let offset = Int(parts.tm_gmtoff) / 60
        let sign = offset < 0 ? "-" : "+"
        return day(unixSeconds) + "T" + timeOfDay(unixSeconds) + sign + two(Int32(abs(offset) / 60)) + ":" + two(Int32(abs(offset) % 60))
    }

    /// `YYYYMMDD-HHMMSS` in local time: session ids sort by start.
    public static func compact(_ unixSeconds: Double) -> String {
        let parts = local(unixSeconds)
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }

    /// The calendar parts of an instant in the local time zone.
    public static func local(_ unixSeconds: Double) -> tm {
        var seconds = time_t(unixSeconds.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
}
