import Dashboard
import Platform
import Presentation
import SelfReport
import Settings
import UserData

/// How a running session is shown.
public enum SessionDisplay: Equatable, Sendable {
    /// Lines on standard output, for people or as JSON Lines.
    case lines(MonitorFormat)
    /// The full-screen dashboard; its keys work when standard input is a terminal.
    case dashboard
}

extension SessionRun {
    /// Adds the session's display: the dashboard — its keys start and stop the breathing
    /// exercise, note and `stop` the session — or lines (labelled with `sensor` when several
    /// sessions share stdout). Returns the dashboard, which must be closed on the way out to give
    /// the terminal back.
    func show(
        _ display: SessionDisplay, sensor: String?, title: String, eventTime: EventTime, start: Double, settings: Settings,
        loop: EventLoop, clock: @escaping () -> Double, stop: @escaping () -> Void
    ) -> Dashboard? {
        guard display == .dashboard else {
            if case .lines(let format) = display { add(LiveWriter(format: format, sensor: sensor, time: eventTime)) }
            return nil
        }
        let configuration = dashboardConfiguration(title: title, start: start, settings: settings, eventTime: eventTime)
        let dashboard = Dashboard(
            configuration: configuration, loop: loop, clock: clock,
            colors: Self.dashboardColors, bell: settings.breathing.bell)
        dashboard.perform = { [unowned self] command in
            switch command {
            case .toggleExercise: toggleExercise(at: clock())
            case .saveNote(let text): report(.note(text), at: clock())
            case .saveCheckIn(let checkIn): report(.checkIn(checkIn), at: clock())
            case .answerEpisode(let episode, let answer): label(episode: episode, answer, via: "dashboard", at: clock())
            case .quit: stop()
            case .redrawAll: break
            }
        }
        add(dashboard)
        return dashboard
    }

    /// What the dashboard shows of this session: its title, start, breathing pattern and settings,
    /// and the earlier check-ins' answers its `c` completes to.
    func dashboardConfiguration(
        title: String, start: Double, settings: Settings, eventTime: EventTime = .timeOfDay
    ) -> DashboardState.Configuration {
        DashboardState.Configuration(
            title: title, start: start, pattern: session.judge.coach.pattern, exerciseSeconds: settings.breathing.minutes * 60,
            calibrationSeconds: settings.stress.calibration, onsetMargin: settings.stress.onsetMargin,
            acceptsKeys: Terminal.isTerminal(.input), eventTime: eventTime, vocabulary: CheckInVocabulary(SelfReportStore.earlierCheckIns()))
    }

    /// no-color.org: set and not empty means no colour.
    static var dashboardColors: Bool { Environment.value("NO_COLOR").map(\.isEmpty) ?? true }

    /// The dashboard's pacer heard too, as `breathing.sound` asks; where nothing can play it, a
    /// notice says why and the pacer stays silent.
    func pace(_ dashboard: Dashboard, voice: String, at time: Double) {
        guard let voice = AudiblePacer.Voice(rawValue: voice), voice != .off else { return }
        do {
            let audible = try AudiblePacer(voice: voice, directory: NoteInbox.directory)
            audible.prepare(session.judge.coach.pattern)
            dashboard.audible = audible
        } catch {
            report(.notice("the pacer stays silent: \(error)"), at: time)
        }
    }

    /// Suggestions as desktop notifications too, when `notify.desktop` is on and a session bus
    /// runs; naming the sensor when the session is one of several.
    func notifyDesktop(_ settings: Settings.Notify, loop: EventLoop, namesSensor: Bool, clock: @escaping () -> Double) {
        guard let notifier = DesktopNotifier(settings, loop: loop, namesSensor: namesSensor) else { return }
        notifier.onAnswer = { [unowned self] episode, answer in label(episode: episode, answer, via: "notification", at: clock()) }
        add(notifier)
    }
}
