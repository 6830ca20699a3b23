import HRV
import SessionLog

/// A wall-clock date and time at a fixed UTC offset, whole seconds: what EDF's start date and
/// time and BIDS's `acq_time` record.
public struct LocalTime: Equatable, Sendable {
    public var day: CalendarDay
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(unix: Double, offsetSeconds: Int) {
        let seconds = Int(unix.rounded(.down)) + offsetSeconds
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let inDay = seconds - days * 86_400
        day = CalendarDay(ordinal: days)
        hour = inDay / 3600
        minute = inDay % 3600 / 60
        second = inDay % 60
    }

    /// The offset of an ISO 8601 time such as the header's `start_local`
    /// (`2026-11-21T17:45:31+01:00`); 0 for `Z` or none.
    public static func offsetSeconds(of text: String) -> Int {
        let characters = Array(text)
        guard characters.count >= 6 else { return 0 }
        let tail = characters.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-", tail[tail.startIndex + 3] == ":",
              let hours = Int(String(tail.dropFirst().prefix(2))), let minutes = Int(String(tail.suffix(2)))
        else { return 0 }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// `YYYY-MM-DDThh:mm:ss`, as BIDS writes `acq_time`.
    public var iso: String { "\(day.text)T\(Self.two(hour)):\(Self.two(minute)):\(Self.two(second))" }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

/// Numbers as the export formats write them.
enum ExportNumber {
    /// A corrected interval as the session file wrote it: the exact decimal of its microticks
    /// (`875`, `975.5859375`), or as Swift writes the number when no interval is that long.
    static func milliseconds(_ value: Double) -> String {
        guard abs(value) < 1e9 else { return String(value) }
        return RRInterval(microticks: Int64((value * Double(RRInterval.microticksPerMillisecond)).rounded())).exactMilliseconds
    }

    /// `value` rounded to `places` decimals, trailing zeros dropped: `12.5`, `3`, `0.000977`.
    static func text(_ value: Double, places: Int = 6) -> String {
        // Beyond whole numbers an Int holds, as Swift writes it (only a damaged file's clock gets there).
        guard abs(value) < 1e12 else { return String(value) }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = (scaled / scale).rounded(.down)
        var fraction = Int(scaled - whole * scale)
        let text = (value < 0 && scaled > 0 ? "-" : "") + String(Int(whole))
        guard fraction > 0 else { return text }
        var digits = places
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let written = String(fraction)
        return text + "." + String(repeating: "0", count: digits - written.count) + written
    }
}
