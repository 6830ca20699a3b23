import ArgumentParser
import Dashboard
import LiveSession
import Platform
import Presentation
import Settings

/// How a running session is shown: `--format` and `--no-dashboard`.
struct DisplayOptions: ParsableArguments {
    @Option(help: "text or jsonl (one JSON object per line; see docs/reference/session-files.md). Text on a terminal is the dashboard.")
    var format: MonitorFormat = .text

    @Flag(name: .customLong("no-dashboard"), help: "Print text lines even on a terminal.")
    var noDashboard = false

    @Option(help: "Hear the dashboard's breathing pacer: off, tone or speech (default: breathing.sound, off).")
    var sound: AudiblePacer.Voice?

    /// The settings with `--sound` in effect.
    func applied(to settings: Settings) -> Settings {
        var settings = settings
        if let sound { settings.breathing.sound = sound.rawValue }
        return settings
    }

    /// Text on a terminal that can draw one gets the dashboard.
    var display: SessionDisplay {
        guard format == .text, !noDashboard, Terminal.isTerminal(.output) else { return .lines(format) }
        let terminal = Environment.value("TERM") ?? ""
        return terminal.isEmpty || terminal == "dumb" ? .lines(format) : .dashboard
    }
}
