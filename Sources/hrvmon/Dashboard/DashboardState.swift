import Platform
import BlueZ
import HRV
import HeartRateProtocol
import LivePipeline

/// Everything the dashboard shows, kept up to date from the session's events. No I/O and no
/// clock of its own: time comes with each event (and with pacer frames), so the same events
/// always give the same screen.
struct DashboardState {
    struct Configuration {
        /// What runs, for the title bar: `monitor`, `demo ×10`.
        var title: String
        /// Start of the session, on the events' clock.
        var start: Double
        /// The exercise `b` starts.
        var pattern: BreathingPattern
        var exerciseSeconds: Double
        var calibrationSeconds: Double
        /// SDs below the resting mean where stress starts (stress.onset_margin_sd).
        var onsetMargin: Double
        /// Whether keys reach the dashboard (stdin is a terminal).
        var acceptsKeys: Bool
    }

    /// What the keys are doing.
    enum Mode: Equatable {
        case normal
        case help
        /// Typing a note: the text so far.
        case note(String)
    }

    /// A breathing exercise under way, paced on the events' clock.
    struct Exercise {
        var pacer: BreathingPacer
        var start: Double
        /// Where the pacer has been moved to.
        var time: Double
    }

    /// One line of the event log.
    struct LoggedEvent {
        var time: Double
        var text: String
    }

    let configuration: Configuration
    var mode = Mode.normal
    /// Time of the newest event: the session clock in the title ticks with data only.
    private(set) var now: Double
    private(set) var latest: MetricsReport?
    private(set) var trend = TrendHistory()
    private(set) var link: LinkStatus?
    private(set) var sensorName: String?
    private(set) var sensorAddress: String?
    private(set) var location: String?
    private(set) var battery: Int?
    private(set) var contact: HeartRateMeasurement.SensorContact?
    private(set) var beats = 0
    private(set) var malformed = 0
    /// The stress prompt, from the suggestion until the exercise starts or the episode ends.
    private(set) var prompt: BreathingCoach.Suggestion?
    private(set) var exercise: Exercise?
    /// The exercise that ended and waits for its measured effect: its pattern and length.
    private(set) var finishedExercise: (pattern: String, seconds: Double)?
    private(set) var effect: ExerciseEffect?
    /// Newest last.
    private(set) var log: [LoggedEvent] = []
    /// Set once the session has ended (the demo stays on screen until `q`).
    private(set) var summary: SessionSummary?

    static let logLength = 20

    init(configuration: Configuration) {
        self.configuration = configuration
        now = configuration.start
    }

    mutating func apply(_ event: SessionEvent, at time: Double) {
        now = max(now, time)
        switch event {
        case .live(let event): apply(event, at: time)
        case .link(let status): link = status
        case .sensor(.identity(let name, let address)):
            sensorName = name
            sensorAddress = address
        case .sensor(.bodySensorLocation(let place)): location = place
        case .sensor(.batteryLevel(let percent)): battery = percent
        case .notice, .note: break
        }
        if case .live(.metrics) = event { return }
        if let text = LiveWriter.text(for: event) {
            log.append(LoggedEvent(time: time, text: text))
            if log.count > Self.logLength { log.removeFirst(log.count - Self.logLength) }
        }
    }

    private mutating func apply(_ event: LiveEvent, at time: Double) {
        switch event {
        case .beat(let beat):
            contact = beat.sensorContact
            beats = beat.sequence
        case .metrics(let report):
            latest = report
            trend.add(report)
        case .malformed(let packet): malformed = packet.count
        case .episode(let episode) where episode.kind == .stress: prompt = nil
        case .suggestion(let suggestion): prompt = suggestion
        case .exercise(let mark) where mark.kind == .started:
            exercise = Exercise(pacer: BreathingPacer(pattern: configuration.pattern, start: mark.time), start: mark.time, time: mark.time)
            prompt = nil
            finishedExercise = nil
            effect = nil
        case .exercise(let mark):
            finishedExercise = (mark.pattern, exercise.map { mark.time - $0.start } ?? 0)
            exercise = nil
        case .effect(let measured):
            effect = measured
            finishedExercise = nil
        case .placed, .gap, .episode: break
        }
    }

    /// Moves the pacer to `time` (a frame of its animation).
    mutating func advancePacer(to time: Double) {
        guard var running = exercise, time > running.time else { return }
        _ = running.pacer.advance(to: time)
        running.time = time
        exercise = running
    }

    /// The exercise has run its configured length and should be stopped.
    func exerciseIsDue(at time: Double) -> Bool {
        exercise.map { time - $0.start >= configuration.exerciseSeconds } ?? false
    }

    mutating func finish(_ summary: SessionSummary) {
        self.summary = summary
        mode = .normal
    }

    /// Seconds since the session started, on the clock of the newest event.
    var sessionSeconds: Double { max(0, now - configuration.start) }
}
