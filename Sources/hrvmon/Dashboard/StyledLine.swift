/// A line of text in parts with their styles, drawn with ANSI escapes only when colours are on
/// (`NO_COLOR` unset). Widths count characters: the dashboard draws only narrow ones.
struct StyledLine {
    /// An SGR parameter string, e.g. `1;31` for bold red; empty for plain text.
    struct Style: Equatable {
        let code: String

        static let plain = Style(code: "")
        static let strong = Style(code: "1")
        static let faint = Style(code: "2")
        static let banner = Style(code: "7")
        static let good = Style(code: "32")
        static let warning = Style(code: "33")
        static let alarm = Style(code: "1;31")
        static let calm = Style(code: "36")
        static let active = Style(code: "34")
    }

    private(set) var parts: [(text: String, style: Style)] = []

    init(_ text: String = "", _ style: Style = .plain) {
        if !text.isEmpty { parts = [(text, style)] }
    }

    mutating func append(_ text: String, _ style: Style = .plain) {
        if !text.isEmpty { parts.append((text, style)) }
    }

    mutating func append(_ line: StyledLine) {
        parts += line.parts
    }

    /// The first `width` characters, padded with spaces to exactly `width`.
    func fitted(to width: Int) -> StyledLine {
        var line = StyledLine()
        var left = width
        for part in parts where left > 0 {
            let text = part.text.count > left ? String(part.text.prefix(left)) : part.text
            left -= text.count
            line.append(text, part.style)
        }
        line.append(String(repeating: " ", count: max(0, left)))
        return line
    }

    /// Words of `text` in lines of at most `width` characters (a longer word is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            let word = word.count > width ? String(word.prefix(width)) : String(word)
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// Cut to `width` characters; with `colors`, each styled part between its escapes.
    func rendered(width: Int, colors: Bool) -> String {
        var left = width
        var output = ""
        for part in parts where left > 0 {
            let text = part.text.count > left ? String(part.text.prefix(left)) : part.text
            left -= text.count
            if colors && !part.style.code.isEmpty {
                output += "\u{1B}[\(part.style.code)m" + text + "\u{1B}[0m"
            } else {
                output += text
            }
        }
        return output
    }
}
