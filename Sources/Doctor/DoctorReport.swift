import Platform
import Presentation
import SessionLog

/// Every finding, written for people (one line per check, the fix under each failure) or as one
/// JSON object for scripts.
public struct DoctorReport {
    public var findings: [Finding]

    public var problems: Int { findings.count { $0.status == .fail } }
    public var warnings: Int { findings.count { $0.status == .warn } }

    /// How the text looks: ✓ ! ✗ – in a UTF-8 locale, words otherwise; colours on a terminal.
    public struct Style {
        public var isUnicode: Bool
        public var hasColors: Bool

        /// From the locale variables and whether standard output is a terminal that may be coloured.
        public static var current: Style {
            let variables: [String] = ["LC_ALL", "LC_CTYPE", "LANG"]
            let locale = variables.lazy.compactMap { Environment.value($0) }.first { !$0.isEmpty } ?? ""
            let term = Environment.value("TERM")
            return Style(
                isUnicode: locale.lowercased().contains("utf-8") || locale.lowercased().contains("utf8"),
                hasColors: Terminal.isTerminal(.output) && Environment.value("NO_COLOR") == nil && term != "dumb")
        }

        public init(isUnicode: Bool, hasColors: Bool) {
            self.isUnicode = isUnicode
            self.hasColors = hasColors
        }
    }

    public func text(_ style: Style) -> String {
        var lines = findings.map { finding in
            var line = "\(mark(finding.status, style)) \(finding.title): \(finding.explanation)"
            if let fix = finding.fix, finding.status == .fail || finding.status == .warn { line += "\n    fix: \(fix)" }
            return line
        }
        lines.append("\n" + summary)
        return lines.joined(separator: "\n") + "\n"
    }

    public var summary: String {
        switch (problems, warnings) {
        case (0, 0): "All checks passed."
        case (0, _): "No problems; \(Formatting.count(warnings, "warning"))."
        default: "\(Formatting.count(problems, "problem"))\(warnings > 0 ? ", \(Formatting.count(warnings, "warning"))" : ""): hrvmon cannot monitor a strap until the problems are fixed."
        }
    }

    public var json: String {
        var object = JSONObject()
        object.add("ok", problems == 0)
        object.add("problems", problems)
        object.add("warnings", warnings)
        object.add("checks", findings.map { finding in
            var item = JSONObject()
            item.add("check", finding.check)
            item.add("title", finding.title)
            item.add("status", finding.status.rawValue)
            item.add("explanation", finding.explanation)
            item.add("fix", finding.fix)
            return item
        })
        return object.serialized + "\n"
    }

    private func mark(_ status: Finding.Status, _ style: Style) -> String {
        let (symbol, word, color): (String, String, String) = switch status {
        case .ok: ("✓", "ok  ", "32")
        case .warn: ("!", "warn", "33")
        case .fail: ("✗", "FAIL", "31")
        case .skip: ("–", "skip", "2")
        }
        let text = style.isUnicode ? symbol : word
        return style.hasColors ? "\u{1B}[\(color)m\(text)\u{1B}[0m" : text
    }

    public init(findings: [Finding]) {
        self.findings = findings
    }
}
