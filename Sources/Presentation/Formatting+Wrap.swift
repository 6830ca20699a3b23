extension Formatting {
    /// The words of `text` in lines of at most `width` characters (a word longer than a line is
    /// cut). Spaces between words on a line stay as they were (`14:03:27  600 beats`); a line
    /// neither starts nor ends with them.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var current = ""
        var spaces = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            guard !word.isEmpty else {
                spaces += 1
                continue
            }
            let word = word.count > width ? String(word.prefix(width)) : String(word)
            let gap = max(1, spaces + 1)
            spaces = 0
            if current.isEmpty {
                current = word
            } else if current.count + gap + word.count <= width {
                current += String(repeating: " ", count: gap) + word
            } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// A line for a terminal `width` columns wide: its leading spaces kept, its words wrapped, and
    /// each continuation indented `hanging` columns (a line that fits is itself).
    public static func wrap(line: String, width: Int, hanging: Int) -> [String] {
        guard line.count > width else { return [line] }
        let leading = line.prefix { $0 == " " }.count
        // Too narrow to indent: plain words, one line after another.
        guard width - max(leading, hanging) >= 20 else { return wrap(line, width: width) }
        let first = wrap(String(line.dropFirst(leading)), width: width - leading)
        let rest = wrap(first.dropFirst().joined(separator: " "), width: width - hanging)
        return first.prefix(1).map { String(repeating: " ", count: leading) + $0 }
            + rest.map { String(repeating: " ", count: hanging) + $0 }
    }
}
