extension Formatting {
    /// A space `wrap` does not break at, for a quantity that reads as one (`5 min 00 s`); `wrap`
    /// writes it as a plain space.
    private static let unbreakableSpace: Character = "\u{00A0}"

    /// `text` with its spaces unbreakable, so `wrap` keeps it on one line.
    public static func unbroken(_ text: String) -> String {
        String(text.map { $0 == " " ? unbreakableSpace : $0 })
    }

    /// The words of `text` in lines of at most `width` characters. No character is dropped: a
    /// word longer than a line goes alone on a line of its own, longer than `width`, which the
    /// terminal folds without inserting anything, so a long path stays whole when copied. Spaces
    /// between words on a line stay as they were (`14:03:27  600 beats`); a line neither starts
    /// nor ends with them.
    public static func wrap(_ text: String, width: Int) -> [String] {
        lines(of: text, width: width).map(plain)
    }

    /// `wrap`'s lines, their unbreakable spaces kept.
    private static func lines(of text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var spaces = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            guard !word.isEmpty else {
                spaces += 1
                continue
            }
            let gap = spaces + 1
            spaces = 0
            if current.isEmpty {
                current = String(word)
            } else if current.count + gap + word.count <= width {
                current += String(repeating: " ", count: gap) + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// A line for a terminal `width` columns wide (nil: no terminal, the line as it is): its
    /// leading spaces kept, its words wrapped, and each continuation indented `hanging` columns
    /// (a line that fits is itself).
    public static func wrap(line: String, width: Int?, hanging: Int) -> [String] {
        guard let width, line.count > width else { return [plain(line)] }
        let leading = line.prefix { $0 == " " }.count
        // Too narrow to indent: plain words, one line after another.
        guard width - max(leading, hanging) >= 20 else { return wrap(line, width: width) }
        let first = lines(of: String(line.dropFirst(leading)), width: width - leading)
        let rest = lines(of: first.dropFirst().joined(separator: " "), width: width - hanging)
        return first.prefix(1).map { String(repeating: " ", count: leading) + plain($0) }
            + rest.map { String(repeating: " ", count: hanging) + plain($0) }
    }

    /// `text` with its unbreakable spaces plain again.
    private static func plain(_ text: String) -> String {
        text.contains(unbreakableSpace) ? String(text.map { $0 == unbreakableSpace ? " " : $0 }) : text
    }
}
