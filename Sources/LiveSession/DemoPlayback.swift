import LivePipeline
import Presentation
import Simulation

/// The demo's timeline played into a session, as `hrvmon demo` plays it on its clock and the
/// tests on a virtual one: the strap's announcements, its notifications, the segments' notices,
/// and the breathing exercise the demo takes itself.
public struct DemoPlayback {
    public static let strapName = "hrvmon demo strap"
    /// From the range RFC 7042 sets aside for documentation.
    public static let strapAddress = "00:00:5E:00:53:01"
    /// The 10-minute scenario in a minute.
    public static let defaultSpeed = 10.0

    /// The exercise running is the one the demo started (the user's own `b` is left alone).
    private var tookExercise = false

    public init() {}

    /// What the demo strap tells at the start: who it is, where it is worn, its battery, and the link.
    public static func announce(on run: SessionRun, at time: Double) {
        run.report(.sensor(.identity(name: Self.strapName, address: Self.strapAddress)), at: time)
        run.report(.sensor(.bodySensorLocation("chest")), at: time)
        run.report(.sensor(.batteryLevel(87)), at: time)
        run.report(.link(LinkStatus(.connected, "simulated")), at: time)
    }

    /// Plays one step of the timeline into the session at `time`: a notification, a segment's
    /// notice, the exercise the demo takes in a breathing segment — unless one runs already — and
    /// stops again (only its own). True at the end of the timeline, which the caller ends.
    public mutating func perform(_ action: DemoTimeline.Action, on run: SessionRun, at time: Double) -> Bool {
        switch action {
        case .notification(let bytes):
            run.receive(bytes, at: time)
        case .acceleration(let second, let accelerometer):
            run.receive(DemoTimeline.accelerationFrame(second: second, of: accelerometer), sampleRate: accelerometer.sampleRate, at: time)
        case .ecg(let frame, let electrocardiogram):
            run.receive(DemoTimeline.ecgFrame(frame, of: electrocardiogram), sampleRate: SimulatedECG.sampleRate, at: time)
        case .segment(let segment):
            run.report(.notice(Self.describe(segment)), at: time)
        case .startExercise where !run.session.isExercising:
            run.toggleExercise(at: time)
            tookExercise = true
        case .stopExercise where tookExercise:
            if run.session.isExercising { run.toggleExercise(at: time) }
            tookExercise = false
        case .startExercise, .stopExercise:
            break
        case .end:
            return true
        }
        return false
    }

    public static func describe(_ segment: Segment) -> String {
        let what = switch segment.kind {
        case .rest: "seated rest"
        case .stress: "mental stress"
        case .breathing:
            "paced breathing at \(Formatting.fixed(segment.breathingRate, digits: segment.breathingRate == segment.breathingRate.rounded() ? 0 : 1)) a minute"
        case .activity: "physical activity"
        case .recovery: "recovery"
        case .talking: "talking"
        case .standing: "standing"
        }
        return "demo: \(Formatting.duration(segment.duration)) of \(what) (simulated heart rate \(Formatting.fixed(segment.heartRate, digits: 0)) bpm, RMSSD \(Formatting.fixed(segment.rmssd, digits: 0)) ms)"
    }

    /// The user's `b`: starts or stops their own exercise. The exercise the demo took itself runs
    /// to the end of its breathing segment, as the demo plays it; `b` then says so instead.
    public func toggleByUser(on run: SessionRun, at time: Double) {
        if tookExercise, run.session.isExercising {
            run.report(.notice("the demo's breathing exercise ends with its breathing segment: breathe along with the pacer"), at: time)
            return
        }
        run.toggleExercise(at: time)
    }
}
