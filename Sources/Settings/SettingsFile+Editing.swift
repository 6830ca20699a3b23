/// Changing one key of a configuration file's text and leaving every other line as it was: how
/// `hrvmon stress tune --apply` sets a value and `hrvmon config --reset` takes it back. Pure.
extension SettingsFile {
    /// `text` with `key` set to `value`: earlier lines of the key (and the comment `setting`
    /// wrote above them) removed, `# note` lines and `key = value` appended at the end.
    public static func setting(_ key: String, to value: String, in text: String, note: [String]) -> String {
        var lines = removingLines(of: key, from: text).kept
        while lines.last?.isEmpty == true { lines.removeLast() }
        if !lines.isEmpty { lines.append("") }
        lines += note.map { "# " + Self.setMark + " " + $0 } + ["\(key) = \(value)"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` without the lines of `key` and the comment `setting` wrote above them; nil when it
    /// has no line of `key`.
    public static func resetting(_ key: String, in text: String) -> String? {
        let (lines, removed) = removingLines(of: key, from: text)
        guard removed else { return nil }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// Marks the comment lines `setting` writes, so they leave with their key.
    static let setMark = "hrvmon:"

    private static func removingLines(of key: String, from text: String) -> (kept: [String], removed: Bool) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if text.hasSuffix("\n") { lines.removeLast() }
        var kept: [String] = []
        var removed = false
        for line in lines {
            let trimmed = Substring(line).trimmingWhitespace()
            guard let equals = trimmed.firstIndex(of: "="), !trimmed.hasPrefix("#"),
                trimmed[..<equals].trimmingWhitespace() == key
            else {
                kept.append(line)
                continue
            }
            removed = true
            while let last = kept.last, last.hasPrefix("# " + setMark) { kept.removeLast() }
        }
        return (kept, removed)
    }
}
