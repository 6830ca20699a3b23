import HRV
import SelfReport

/// Everything a running session tells its outputs (stdout lines, dashboard, session file), in
/// the order it happened.
public enum SessionEvent {
    /// What the pipeline made of the beats: beats, metrics, episodes, suggestions, exercises.
    case live(LiveEvent)
    case link(LinkStatus)
    case sensor(SensorFact)
    /// Something the user should know that is not an error of the data (a failed write, a bus lost).
    case notice(String)
    /// The user's own annotation (`hrvmon note`, the dashboard's `n`).
    case note(String)
    /// A check-in: mood and what, who and where (`hrvmon checkin`, the dashboard's `c`).
    case checkIn(CheckIn)
    /// An answer to "Was that stress?" about one of the session's stress episodes.
    case label(EpisodeLabel)
    /// A step of a resonance-frequency assessment begins, or (without a rate) the assessment ends.
    case resonanceStep(ResonanceStepMark)
    /// A second of the strap's accelerometer (Polar Measurement Data), summarised.
    case motion(MotionSecond)
    /// The desk's presence changed (`monitor` reading the desktop session's idle time).
    case desk(DeskChange)
}

/// What is known about the sensor, as it becomes known.
public enum SensorFact: Equatable {
    case identity(name: String?, address: String)
    case bodySensorLocation(String)
    case batteryLevel(Int)
}

/// The end-of-session totals every output reports.
public struct SessionSummary: Sendable {
    public var time: Double
    /// Wall-clock (monotonic) length of the session.
    public var seconds: Double
    public var beats: Int
    public var malformed: Int
    public var metrics: TimeDomainMetrics?
    /// The baseline stress was judged against: the personal one, or what the session calibrated.
    public var baseline: Baseline?
    public var stressSeconds: Double
    /// Every breathing exercise of the session with its measured effect.
    public var effects: [ExerciseEffect]

    public var exercises: Int { effects.count }

    public init(
        time: Double, seconds: Double, beats: Int, malformed: Int, metrics: TimeDomainMetrics?, baseline: Baseline?,
        stressSeconds: Double, effects: [ExerciseEffect]
    ) {
        self.time = time
        self.seconds = seconds
        self.beats = beats
        self.malformed = malformed
        self.metrics = metrics
        self.baseline = baseline
        self.stressSeconds = stressSeconds
        self.effects = effects
    }
}

extension SessionEvent {
    /// Longest note accepted, in bytes (`hrvmon note`, the dashboard's `n`).
    public static let noteLimit = 4096
}
