/// A line of text in parts with their styles, drawn with ANSI escapes only when colours are on
/// (`NO_COLOR` unset). Widths count characters: the dashboard draws only narrow ones.
public struct StyledLine {
    /// An SGR parameter string, e.g. `1;31` for bold red; empty for plain text.
    public struct Style: Equatable, Sendable {
        public let code: String

        public static let plain = Style(code: "")
        public static let strong = Style(code: "1")
        public static let faint = Style(code: "2")
        public static let banner = Style(code: "7")
        public static let good = Style(code: "32")
        public static let warning = Style(code: "33")
        public static let alarm = Style(code: "1;31")
        public static let calm = Style(code: "36")
        public static let active = Style(code: "34")
    }

    public private(set) var parts: [(text: String, style: Style)] = []

    public init(_ text: String = "", _ style: Style = .plain) {
        if !text.isEmpty { parts = [(text, style)] }
    }

    /// Adds `text` in `style`: to the last part when that has the same style.
    public mutating func append(_ text: String, _ style: Style = .plain) {
        guard !text.isEmpty else { return }
        if let last = parts.indices.last, parts[last].style == style {
            parts[last].text += text
        } else {
            parts.append((text, style))
        }
    }

    public mutating func append(_ line: StyledLine) {
        for part in line.parts { append(part.text, part.style) }
    }

    /// Characters, without escapes.
    public var count: Int { parts.reduce(0) { $0 + $1.text.count } }

    /// The first `width` characters.
    public func prefix(_ width: Int) -> StyledLine {
        var line = StyledLine()
        var left = width
        for part in parts where left > 0 {
            let text = String(part.text.prefix(left))
            left -= text.count
            line.append(text, part.style)
        }
        return line
    }

    /// The first `width` characters, padded with spaces to exactly `width`.
    public func fitted(to width: Int) -> StyledLine {
        var line = prefix(width)
        line.append(String(repeating: " ", count: max(0, width - line.count)))
        return line
    }

    /// The line in lines of at most `width` characters, broken where its fields are: at runs of
    /// two or more spaces (`HR 68 bpm   RMSSD 32.7 ms`), or, for a field longer than a line,
    /// between its words. Continuations start with `indent` spaces. A line that fits is itself.
    public func folded(width: Int, indent: Int = 4) -> [StyledLine] {
        guard count > width, width > indent + 8 else { return [self] }
        let characters = parts.flatMap { part in part.text.map { ($0, part.style) } }
        // Fields: (start, end) of the text between separators, in `characters`.
        var fields: [Range<Int>] = []
        var index = 0
        while index < characters.count {
            while index < characters.count, characters[index].0 == " " { index += 1 }
            let start = index
            while index < characters.count,
                !(characters[index].0 == " " && (index + 1 == characters.count || characters[index + 1].0 == " "))
            {
                index += 1
            }
            if index > start { fields.append(start..<index) }
        }
        // A field too long for a line is split at its single spaces.
        let room = width - indent
        fields = fields.flatMap { field -> [Range<Int>] in
            guard field.count > room else { return [field] }
            var pieces: [Range<Int>] = []
            var start = field.lowerBound
            while field.upperBound - start > room {
                let limit = start + room
                let space = (start..<limit).last { characters[$0].0 == " " } ?? limit
                pieces.append(start..<space)
                start = space < limit ? space + 1 : limit
            }
            pieces.append(start..<field.upperBound)
            return pieces
        }
        let leading = characters.prefix { $0.0 == " " }.count
        var lines: [StyledLine] = []
        var line = StyledLine(String(repeating: " ", count: leading))
        var previousEnd: Int?
        for field in fields {
            let separator = previousEnd.map { characters[$0..<field.lowerBound] } ?? []
            if previousEnd != nil, line.count + separator.count + field.count > width {
                lines.append(line)
                line = StyledLine(String(repeating: " ", count: indent))
            } else {
                for (character, style) in separator { line.append(String(character), style) }
            }
            for (character, style) in characters[field] { line.append(String(character), style) }
            previousEnd = field.upperBound
        }
        lines.append(line)
        return lines
    }

    /// Cut to `width` characters; with `colors`, each styled part between its escapes.
    public func rendered(width: Int, colors: Bool) -> String {
        prefix(width).rendered(colors: colors)
    }

    /// With `colors`, each styled part between its escapes.
    public func rendered(colors: Bool) -> String {
        parts.map { part in
            colors && !part.style.code.isEmpty ? "\u{1B}[\(part.style.code)m" + part.text + "\u{1B}[0m" : part.text
        }.joined()
    }
}
