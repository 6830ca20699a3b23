/// `--format` of `analyze` and `simulate`: text for people, one JSON object or JSON Lines, or CSV.
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, csv
}

/// `--format` of the commands that print a report: a table or text for people, one JSON object
/// for scripts.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json
}

/// `--format` of `monitor` and `demo`: lines for people, or JSON Lines as the session file has them.
public enum MonitorFormat: String, CaseIterable, Sendable {
    case text, jsonl
}

public enum CSV {
    /// A field: quoted when it holds a comma, a quote or a line break, its quotes doubled. By code
    /// point, as CSV readers read: a comma or a quote followed by a combining mark is one Swift
    /// Character that equals neither. For any text a user or a participant chose (a device's
    /// name, a session's id, a tag).
    public static func field(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: { $0 == "," || $0 == "\"" || Character($0).isNewline }) else { return text }
        var quoted = String.UnicodeScalarView()
        for scalar in scalars {
            if scalar == "\"" { quoted.append(scalar) }
            quoted.append(scalar)
        }
        return "\"" + String(quoted) + "\""
    }
}
