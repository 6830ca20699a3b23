import PolarMeasurementData
import Simulation

/// What `hrvmon demo` plays, in order of session time: the strap's notifications, the start of
/// each scenario segment, the breathing exercise it takes during a breathing segment, the end —
/// and the strap's accelerometer, a second at a time, and with `ecg` its ECG, a frame of 73 samples
/// at a time, as a Polar H10 with Measurement Data streams them.
public struct DemoTimeline {
    public enum Action: Equatable {
        case notification([UInt8])
        /// The strap's accelerometer over the second before: its samples are drawn when played.
        case acceleration(second: Int, SimulatedAccelerometer)
        /// The strap's ECG frame `frame` (from 0), which comes as its last sample is taken.
        case ecg(frame: Int, SimulatedECG)
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
    /// ECG samples a frame: what the H10's MTU of 232 holds (shared/POLAR-PMD.md).
    public static let ecgFrameSamples = 73
    /// The H10's clock after it powers up, 2019-01-01 in ns since 2000 (shared/POLAR-PMD.md): the
    /// demo strap's clock at the session's start.
    static let strapClockStart: UInt64 = 599_616_000_000_000_000

    /// The demo strap's ECG frame `frame`, as it sends it: its last sample's time on its clock.
    public static func ecgFrame(_ frame: Int, of electrocardiogram: SimulatedECG) -> PMDFrame {
        let samples = frame * ecgFrameSamples..<(frame + 1) * ecgFrameSamples
        let last = UInt64((SimulatedECG.time(ofSample: samples.upperBound - 1) * 1e9).rounded())
        return PMDFrame(measurementType: .ecg, timestamp: strapClockStart + last, frameType: 0, samples: .ecg(electrocardiogram.samples(samples)))
    }

    /// The demo strap's accelerometer over second `second`, as an H10 sends it (frame type 1:
    /// whole mG, shared/POLAR-PMD.md): the last sample's time on its clock.
    public static func accelerationFrame(second: Int, of accelerometer: SimulatedAccelerometer) -> PMDFrame {
        let samples = accelerometer.samples(second: second)
        let last = UInt64(((Double(second) + Double(samples.count - 1) / accelerometer.sampleRate) * 1e9).rounded())
        let whole = samples.map { Acceleration(x: Int32($0.x.rounded()), y: Int32($0.y.rounded()), z: Int32($0.z.rounded())) }
        return PMDFrame(measurementType: .acc, timestamp: strapClockStart + last, frameType: 1, samples: .acceleration(whole))
    }

    /// `duration` cuts the scenario short (seconds of session time); `takesExercises` false
    /// leaves the breathing segments' exercises to someone else (the resonance assessment's pacer);
    /// `ecg` streams the ECG too (`hrvmon demo --ecg`).
    public init(scenario: Scenario, seed: UInt64, duration: Double? = nil, takesExercises: Bool = true, ecg: Bool = false) {
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
        if ecg {
            let electrocardiogram = SimulatedECG(scenario: scenario, seed: seed, beats: beats)
            steps += (0..<electrocardiogram.sampleCount / Self.ecgFrameSamples).map { frame in
                Step(seconds: SimulatedECG.time(ofSample: (frame + 1) * Self.ecgFrameSamples - 1), action: .ecg(frame: frame, electrocardiogram))
            }
        }
        // At one moment: the segment and its exercise first, then the beats, then the motion.
        let ordered = steps.enumerated().sorted { ($0.element.seconds, $0.offset) < ($1.element.seconds, $1.offset) }.map(\.element)
        self.steps = ordered.filter { $0.seconds <= end } + [Step(seconds: end, action: .end)]
    }
}
