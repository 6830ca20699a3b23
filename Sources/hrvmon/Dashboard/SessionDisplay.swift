import Platform
import ArgumentParser
import DBus
import HRV
import Settings

/// How a running session is shown: `--format` and `--no-dashboard`.
struct DisplayOptions: ParsableArguments {
    @Option(help: "text or jsonl (one JSON object per line; see README). Text on a terminal is the dashboard.")
    var format: MonitorFormat = .text

    @Flag(name: .customLong("no-dashboard"), help: "Print text lines even on a terminal.")
    var noDashboard = false

    /// Text on a terminal that can draw one gets the dashboard.
    var showsDashboard: Bool {
        guard format == .text, !noDashboard, Terminal.isTerminal(.output) else { return false }
        let terminal = Environment.value("TERM") ?? ""
        return !terminal.isEmpty && terminal != "dumb"
    }
}

extension SessionRun {
    /// Adds the session's display: the dashboard on a terminal — its keys start and stop the
    /// breathing exercise, note and `stop` the session — or lines otherwise. Returns the
    /// dashboard, which must be closed on the way out to give the terminal back.
    func show(
        _ options: DisplayOptions, title: String, start: Double, settings: Settings, loop: EventLoop,
        clock: @escaping () -> Double, stop: @escaping () -> Void
    ) -> Dashboard? {
        guard options.showsDashboard else {
            add(LiveWriter(format: options.format))
            return nil
        }
        let pattern = session.judge.coach.pattern
        let configuration = DashboardState.Configuration(
            title: title, start: start, pattern: pattern, exerciseSeconds: settings.breathing.minutes * 60,
            calibrationSeconds: settings.stress.calibration, onsetMargin: settings.stress.onsetMargin,
            acceptsKeys: Terminal.isTerminal(.input))
        // no-color.org: set and not empty means no colour.
        let colors = Environment.value("NO_COLOR").map(\.isEmpty) ?? true
        let dashboard = Dashboard(configuration: configuration, loop: loop, clock: clock, colors: colors, bell: settings.breathing.bell)
        dashboard.perform = { [unowned self] command in
            switch command {
            case .toggleExercise: toggleExercise(pattern.name, at: clock())
            case .saveNote(let text): report(.note(text), at: clock())
            case .quit: stop()
            case .redrawAll: break
            }
        }
        add(dashboard)
        return dashboard
    }

    /// Suggestions as desktop notifications too, when `notify.desktop` is on and a session bus runs.
    func notifyDesktop(_ settings: Settings.Notify, loop: EventLoop) {
        if let notifier = DesktopNotifier(settings, loop: loop) { add(notifier) }
    }
}
