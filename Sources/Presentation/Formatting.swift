/// Number and duration formatting for terminal text, without Foundation.
public enum Formatting {
    /// `value` rounded to `digits` decimals, always showing them.
    public static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }

    /// `1 h 02 min 05 s`, `5 min 00 s`, `42 s`.
    public static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, secs) = (total / 3600, total % 3600 / 60, total % 60)
        if hours > 0 { return "\(hours) h \(twoDigits(minutes)) min \(twoDigits(secs)) s" }
        if minutes > 0 { return "\(minutes) min \(twoDigits(secs)) s" }
        return "\(secs) s"
    }

    /// `1 beat`, `2 beats`.
    public static func count(_ value: Int, _ noun: String) -> String {
        "\(value) \(noun)\(value == 1 ? "" : "s")"
    }

    /// `m:ss` from the first beat (or the start of an exercise).
    /// `m:ss`, or `h:mm:ss` from an hour on.
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600):\(twoDigits(total / 60 % 60)):\(twoDigits(total % 60))" }
        return "\(total / 60):\(twoDigits(total % 60))"
    }

    /// `UTC+01:00`, `UTC−05:00` from seconds east of UTC.
    public static func utcOffset(_ seconds: Int) -> String {
        let minutes = seconds / 60
        let hours = abs(minutes) / 60, rest = abs(minutes) % 60
        return "UTC\(minutes < 0 ? "−" : "+")\(twoDigits(hours)):\(twoDigits(rest))"
    }

    /// Rows as left-aligned columns two spaces apart, one line each.
    public static func columns(_ rows: [[String]]) -> String {
        let widths = (rows.first ?? []).indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

/// `7` → `07`: minutes and seconds under a larger unit.
private func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

extension Formatting {
    /// "still 82 %, walking 18 %": each part's share of the whole, largest first, the empty ones
    /// left out; nil when all are empty.
    public static func shares(_ parts: [(name: String, amount: Double)]) -> String? {
        let total = parts.reduce(0) { $0 + $1.amount }
        guard total > 0 else { return nil }
        return parts.filter { $0.amount > 0 }.sorted { $0.amount > $1.amount }
            .map { "\($0.name) \(fixed(100 * $0.amount / total, digits: 0)) %" }.joined(separator: ", ")
    }
}
