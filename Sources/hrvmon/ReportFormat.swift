import Platform
import ArgumentParser

/// `--format` of the commands that print a report: a table or text for people, one JSON object
/// for scripts.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
