/// Text from outside (file contents, names) made safe to print on a terminal: control characters
/// would otherwise be interpreted — an ESC sequence in an RR file could recolour, move or retitle
/// the user's terminal, a BEL ring it. Line breaks and tabs stay; other C0 controls and DEL show
/// as `\x1B`, C1 controls and the bidirectional overrides (which can reorder what is shown) as
/// `\u{9B}`.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A, 0x09:
                result.unicodeScalars.append(scalar)
            case 0x00..<0x20, 0x7F:
                result += "\\x" + hex(scalar.value, digits: 2)
            case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + hex(scalar.value, digits: 2) + "}"
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
