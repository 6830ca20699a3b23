/// Which column of a delimited file holds the RR intervals (`--column`).
public enum RRColumn: Equatable, Sendable {
    /// A header name, matched case-insensitively.
    case named(String)
    /// A position from 1, for files with or without a header.
    case position(Int)

    /// `--column`: a whole number is a position, anything else a header name.
    public init?(argument: String) {
        let text = argument.trimmingSpaces
        guard !text.isEmpty else { return nil }
        if text.allSatisfy(\.isASCIIDigit) {
            guard let position = Int(text), position >= 1 else { return nil }
            self = .position(position)
        } else {
            self = .named(text)
        }
    }
}

/// What a header name says: whether the column holds RR intervals, and in which unit if it says.
/// Recognises the names RR exports use: `rr`, `rr_ms`, `rri`, `RR (ms)`, `RR-interval [ms]`
/// (Polar Sensor Logger), `rr_interval`, `IBI`, `NN`, `rr_s`, `RR [s]`, `rr_1024`.
enum RRHeaderName {
    static let names: Set = ["rr", "rri", "rrinterval", "rrintervals", "ibi", "interbeatinterval", "nn", "nni", "nninterval"]
    static let units: [String: RRUnit] = [
        "ms": .ms, "msec": .ms, "milliseconds": .ms, "s": .s, "sec": .s, "seconds": .s, "1024": .ticks, "1/1024s": .ticks,
        "1/1024": .ticks, "ticks": .ticks,
    ]

    /// nil when the name is not an RR column; else the unit it names (nil: it names none).
    static func unit(of header: String) -> RRUnit?? {
        var name = header.lowercased().trimmingSpaces
        var unit: RRUnit?
        // A unit in brackets at the end: `RR (ms)`, `RR-interval [ms]`.
        if let close = name.last, close == ")" || close == "]",
           let open = name.lastIndex(of: close == ")" ? "(" : "[") {
            let inside = name[name.index(after: open)..<name.index(before: name.endIndex)].filter { $0 != " " }
            guard let named = units[String(inside)] else { return nil }
            unit = named
            name = String(name[..<open])
        } else if let separator = name.lastIndex(where: { $0 == "_" || $0 == " " || $0 == "-" }),
                  let named = units[String(name[name.index(after: separator)...])] {
            // A unit after a separator: `rr_ms`, `rr_s`, `rr_1024`.
            unit = named
            name = String(name[..<separator])
        }
        let base = String(name.filter { $0.isLetter || $0.isNumber })
        return names.contains(base) ? .some(unit) : nil
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
