import HRV
import Monitor
import Settings
import Simulation
@testable import hrvmon

/// The demo's timeline through the real live pipeline into a `DashboardState`, as `hrvmon demo`
/// plays it, but on a virtual clock: no terminal, no waiting.
final class DemoReplay {
    static let start = 1_800_000_000.0
    static let configuration = DashboardState.Configuration(
        title: "demo ×10", start: start, pattern: .resonance(), exerciseSeconds: 300, calibrationSeconds: 180,
        onsetMargin: 1.5, acceptsKeys: true)

    var session: LiveSession
    var state: DashboardState
    private var steps: ArraySlice<DemoTimeline.Step>
    /// Every suggestion made, with its session time.
    private(set) var suggestions: [(seconds: Double, suggestion: BreathingCoach.Suggestion)] = []

    init(scenario: Scenario = .demo, seed: UInt64 = 1, configuration: DashboardState.Configuration = DemoReplay.configuration) throws {
        let settings = Settings()
        session = LiveSession(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: nil))
        state = DashboardState(configuration: configuration)
        steps = DemoTimeline(scenario: scenario, seed: seed).steps[...]
        report(.sensor(.identity(name: Demo.strapName, address: Demo.strapAddress)), at: Self.start)
        report(.sensor(.batteryLevel(87)), at: Self.start)
        report(.sensor(.bodySensorLocation("chest")), at: Self.start)
        report(.link(.init(.connected, "simulated")), at: Self.start)
    }

    func report(_ event: SessionEvent, at time: Double) {
        if case .live(.suggestion(let suggestion)) = event { suggestions.append((time - Self.start, suggestion)) }
        state.apply(event, at: time)
    }

    /// Plays the timeline up to `seconds` of session time.
    func play(until seconds: Double) {
        while let step = steps.first, step.seconds <= seconds {
            steps.removeFirst()
            let time = Self.start + step.seconds
            switch step.action {
            case .notification(let bytes): session.receive(bytes, at: time) { report(.live($0), at: time) }
            case .segment(let segment): report(.notice(Demo.describe(segment)), at: time)
            case .startExercise: startExercise(at: step.seconds)
            case .stopExercise: session.stopExercise(at: time) { report(.live($0), at: time) }
            case .end: finish(at: step.seconds)
            }
        }
    }

    func startExercise(at seconds: Double) {
        session.startExercise("resonance", at: Self.start + seconds) { report(.live($0), at: Self.start + seconds) }
    }

    func finish(at seconds: Double) {
        let time = Self.start + seconds
        session.finish(at: time) { report(.live($0), at: time) }
        state.finish(SessionSummary(
            time: time, seconds: seconds, beats: session.recording.rawBeats, malformed: 0, metrics: session.recording.metrics,
            baseline: session.judge.detector.baseline, stressSeconds: 0, exercises: session.judge.effects.count))
    }
}
