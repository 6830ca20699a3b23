import Platform
import HRV
import LivePipeline
import Settings
import Simulation
@testable import hrvmon

/// The demo's timeline through a real `SessionRun` into a `DashboardState`, step by step as
/// `hrvmon demo` plays it on a terminal with keys, but on a virtual clock: no terminal, no waiting.
final class DemoReplay {
    static let start = 1_800_000_000.0
    static let configuration = DashboardState.Configuration(
        title: "demo ×10", start: start, pattern: .resonance(), exerciseSeconds: 300, calibrationSeconds: 180,
        onsetMargin: 1.5, acceptsKeys: true)

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

    let run: SessionRun
    private let screen: Screen
    private var steps: ArraySlice<DemoTimeline.Step>
    private var tookExercise = false

    var state: DashboardState {
        get { screen.state }
        set { screen.state = newValue }
    }

    /// Every suggestion made, with its session time.
    var suggestions: [(seconds: Double, suggestion: BreathingCoach.Suggestion)] { screen.suggestions }

    init(scenario: Scenario = .demo, seed: UInt64 = 1, configuration: DashboardState.Configuration = DemoReplay.configuration) throws {
        let settings = Settings()
        screen = Screen(configuration: configuration)
        run = SessionRun(
            session: LiveSession(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: nil)), outputs: [screen])
        steps = DemoTimeline(scenario: scenario, seed: seed).steps[...]
        Demo.announce(on: run, at: Self.start)
    }

    /// Plays the timeline up to `seconds` of session time.
    func play(until seconds: Double) {
        while let step = steps.first, step.seconds <= seconds {
            steps.removeFirst()
            let time = Self.start + step.seconds
            if Demo.perform(step.action, on: run, at: time, tookExercise: &tookExercise) {
                run.finish(at: time, seconds: step.seconds)
            }
        }
    }

    /// Starts the exercise as the dashboard's `b` does.
    func startExercise(at seconds: Double) {
        run.toggleExercise(run.session.judge.coach.pattern.name, at: Self.start + seconds)
    }
}
