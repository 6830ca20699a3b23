import ArgumentParser
import LiveSession
import Platform
import Presentation

/// How a running session is shown: `--format` and `--no-dashboard`.
struct DisplayOptions: ParsableArguments {
    @Option(help: "text or jsonl (one JSON object per line; see README). Text on a terminal is the dashboard.")
    var format: MonitorFormat = .text

    @Flag(name: .customLong("no-dashboard"), help: "Print text lines even on a terminal.")
    var noDashboard = false

    /// Text on a terminal that can draw one gets the dashboard.
    var display: SessionDisplay {
        guard format == .text, !noDashboard, Terminal.isTerminal(.output) else { return .lines(format) }
        let terminal = Environment.value("TERM") ?? ""
        return terminal.isEmpty || terminal == "dumb" ? .lines(format) : .dashboard
    }
}
