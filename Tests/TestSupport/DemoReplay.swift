import Dashboard
import HRV
import LivePipeline
import LiveSession
import SessionLog
import Settings
import Simulation

/// The demo's timeline through a real `SessionRun` into a `DashboardState`, step by step as
/// `hrvmon demo` plays it on a terminal with keys, but on a virtual clock: no terminal, no waiting.
public final class DemoReplay {
    public static let start = 1_800_000_000.0
    public static let configuration = DashboardState.Configuration(
        title: "demo ×10", start: start, pattern: .resonance(), exerciseSeconds: 300, calibrationSeconds: 180,
        onsetMargin: 1.5, acceptsKeys: true, eventTime: .intoSession(start: start))

    /// The dashboard's state kept from the session's events, as the dashboard keeps it.
    private final class Screen: SessionOutput {
        var state: DashboardState
        var suggestions: [(seconds: Double, suggestion: BreathingCoach.Suggestion)] = []

        init(configuration: DashboardState.Configuration) {
            state = DashboardState(configuration: configuration)
        }

        func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
            if case .live(.suggestion(let suggestion)) = event { suggestions.append((time - DemoReplay.start, suggestion)) }
            state.apply(event, at: time)
        }

        func finish(_ summary: SessionSummary) {
            state.finish(summary)
        }
    }

    public let run: SessionRun
    private let screen: Screen
    private var steps: ArraySlice<DemoTimeline.Step>
    private var playback = DemoPlayback()

    public var state: DashboardState {
        get { screen.state }
        set { screen.state = newValue }
    }

    /// Every suggestion made, with its session time.
    public var suggestions: [(seconds: Double, suggestion: BreathingCoach.Suggestion)] { screen.suggestions }

    public init(scenario: Scenario = .demo, seed: UInt64 = 1, configuration: DashboardState.Configuration = DemoReplay.configuration) throws {
        let settings = Settings()
        screen = Screen(configuration: configuration)
        run = SessionRun(
            session: SessionPipeline(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: nil)), outputs: [screen])
        steps = DemoTimeline(scenario: scenario, seed: seed).steps[...]
        DemoPlayback.announce(on: run, at: Self.start)
    }

    /// Plays the timeline up to `seconds` of session time.
    public func play(until seconds: Double) {
        while let step = steps.first, step.seconds <= seconds {
            steps.removeFirst()
            let time = Self.start + step.seconds
            if playback.perform(step.action, on: run, at: time) {
                run.finish(at: time, seconds: step.seconds)
            }
        }
    }

    /// The dashboard's `b` in `hrvmon demo`.
    public func pressB(at seconds: Double) {
        playback.toggleByUser(on: run, at: Self.start + seconds)
    }

    /// Starts the exercise as the dashboard's `b` does.
    public func startExercise(at seconds: Double) {
        run.toggleExercise(at: Self.start + seconds)
    }
}
