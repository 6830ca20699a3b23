import Dashboard
import Platform
import Settings

/// Several sensors' sessions on one event loop (`monitor --device A --device B`): each keeps its
/// own pipeline, file and outputs. What there is one of per user is shared: `hrvmon note` (one
/// inbox; a note goes into every session) and the terminal (one dashboard with a section per
/// sensor, whose keys act on every session: `b` breathes in each, `n` notes into each, `q` ends all).
public final class SessionGroup {
    public let hosts: [LiveSessionHost]
    /// The shared dashboard; nil when the sessions write lines.
    public let dashboard: Dashboard?
    private let loop: EventLoop
    private var notes: NoteInbox?

    /// The hosts must have been made with `takesNotes: false`, and with no display of their own
    /// for the dashboard (`.dashboard` here).
    public init(
        _ hosts: [LiveSessionHost], display: SessionDisplay, title: String, start: Double, settings: Settings, loop: EventLoop,
        clock: @escaping () -> Double, stop: @escaping () -> Void
    ) {
        self.hosts = hosts
        self.loop = loop
        let runs = hosts.map(\.run)
        if display == .dashboard {
            let states = runs.map { DashboardState(configuration: $0.dashboardConfiguration(title: title, start: start, settings: settings)) }
            let dashboard = Dashboard(
                screen: SensorsDashboardState(sensors: states, title: title), loop: loop, clock: clock, colors: SessionRun.dashboardColors,
                bell: settings.breathing.bell)
            dashboard.perform = { command in
                switch command {
                case .toggleExercise: Self.toggleExercise(runs, at: clock())
                case .saveNote(let text): for run in runs { run.report(.note(text), at: clock()) }
                case .saveCheckIn(let checkIn): for run in runs { run.report(.checkIn(checkIn), at: clock()) }
                // The question is the first sensor's (its state has the keys).
                case .answerEpisode(let episode, let answer): runs[0].label(episode: episode, answer, via: "dashboard", at: clock())
                case .quit: stop()
                case .redrawAll: break
                }
            }
            for (index, run) in runs.enumerated() { run.add(DashboardFeed(dashboard, sensor: index)) }
            runs[0].pace(dashboard, voice: settings.breathing.sound, at: clock())
            self.dashboard = dashboard
        } else {
            dashboard = nil
        }
        do {
            notes = try NoteInbox(loop: loop) { message in
                let time = clock()
                for run in runs { run.report(message, at: time) }
            }
        } catch {
            for run in runs { run.report(.notice("`hrvmon note` cannot reach this session: \(error)"), at: clock()) }
        }
    }

    /// Starts the breathing exercise in every session, or stops it in every session, as the
    /// first one's says: they run side by side.
    private static func toggleExercise(_ runs: [SessionRun], at time: Double) {
        let exercising = runs[0].session.isExercising
        for run in runs where run.session.isExercising == exercising { run.toggleExercise(at: time) }
    }

    /// Runs the loop until something stops it; then the notes still waiting go in, every
    /// session ends at `end`, and the dashboard gives the terminal back with the summaries.
    public func runUntilStopped(finishing end: () -> (time: Double, seconds: Double)) {
        loop.run()
        notes?.receive()
        notes = nil
        for host in hosts { host.finish(end) }
        dashboard?.close()
    }
}
