import Simulation

/// What `hrvmon demo` plays, in order of session time: the strap's notifications, the start of
/// each scenario segment, the breathing exercise it takes during a breathing segment, the end —
/// and the strap's accelerometer, a second at a time, as a Polar H10 with Measurement Data streams it.
public struct DemoTimeline {
    public enum Action: Equatable {
        case notification([UInt8])
        /// The strap's accelerometer over the second before: its samples are drawn when played.
        case acceleration(second: Int, SimulatedAccelerometer)
        case segment(Segment)
        case startExercise
        case stopExercise
        case end
    }

    public struct Step: Equatable {
        /// Seconds from the start of the session.
        public var seconds: Double
        public var action: Action

        public init(seconds: Double, action: Action) {
            self.seconds = seconds
            self.action = action
        }
    }

    public let steps: [Step]

    /// `duration` cuts the scenario short (seconds of session time); `takesExercises` false
    /// leaves the breathing segments' exercises to someone else (the resonance assessment's pacer).
    public init(scenario: Scenario, seed: UInt64, duration: Double? = nil, takesExercises: Bool = true) {
        let (beats, truth) = Simulator(scenario: scenario, seed: seed).run()
        let end = min(duration ?? scenario.duration, scenario.duration)
        var steps: [Step] = []
        for (segment, span) in zip(scenario.segments, truth.spans) {
            steps.append(Step(seconds: span.start, action: .segment(segment)))
            if takesExercises, segment.kind == .breathing {
                steps.append(Step(seconds: span.start, action: .startExercise))
                steps.append(Step(seconds: span.end, action: .stopExercise))
            }
        }
        steps += SimulatedStrap.notifications(for: beats).map { Step(seconds: $0.seconds, action: .notification($0.bytes)) }
        let accelerometer = SimulatedAccelerometer(scenario: scenario, seed: seed)
        steps += (0..<accelerometer.seconds).map { Step(seconds: Double($0 + 1), action: .acceleration(second: $0, accelerometer)) }
        // At one moment: the segment and its exercise first, then the beats, then the motion.
        let ordered = steps.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
        self.steps = ordered.filter { $0.seconds <= end } + [Step(seconds: end, action: .end)]
    }
}
