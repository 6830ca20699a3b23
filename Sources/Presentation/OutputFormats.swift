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
