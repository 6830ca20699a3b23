import HRV
import HeartRateProtocol
import LivePipeline
import Presentation
import SelfReport

/// Everything the dashboard shows, kept up to date from the session's events. No I/O and no
/// clock of its own: time comes with each event (and with pacer frames), so the same events
/// always give the same screen.
public struct DashboardState {
    public struct Configuration: Sendable {
        /// What runs, for the title bar: `monitor`, `demo ×10`.
        public var title: String
        /// Start of the session, on the events' clock.
        public var start: Double
        /// The exercise `b` starts.
        public var pattern: BreathingPattern
        public var exerciseSeconds: Double
        public var calibrationSeconds: Double
        /// SDs below the resting mean where stress starts (stress.onset_margin_sd).
        public var onsetMargin: Double
        /// Whether keys reach the dashboard (stdin is a terminal).
        public var acceptsKeys: Bool
        /// How the event log and the summary say when (the demo: time into the session).
        public var eventTime: EventTime
        /// Earlier check-ins' answers, which Tab completes to.
        public var vocabulary: CheckInVocabulary

        public init(
            title: String, start: Double, pattern: BreathingPattern, exerciseSeconds: Double,
            calibrationSeconds: Double, onsetMargin: Double, acceptsKeys: Bool, eventTime: EventTime = .timeOfDay,
            vocabulary: CheckInVocabulary = CheckInVocabulary()
        ) {
            self.vocabulary = vocabulary
            self.title = title
            self.start = start
            self.pattern = pattern
            self.exerciseSeconds = exerciseSeconds
            self.calibrationSeconds = calibrationSeconds
            self.onsetMargin = onsetMargin
            self.acceptsKeys = acceptsKeys
            self.eventTime = eventTime
        }
    }

    /// What the keys are doing.
    public enum Mode: Equatable {
        case normal
        case help
        /// Typing a note: the text so far.
        case note(String)
        /// Answering a check-in.
        case checkIn(CheckInForm)
        /// Asking "Was that stress?" about stress episode n (from 1).
        case question(Int)
    }

    /// A breathing exercise under way, paced on the events' clock.
    public struct Exercise {
        public var pacer: BreathingPacer
        public var start: Double
        /// Where the pacer has been moved to.
        public var time: Double
        /// The resonance assessment's step it paces (from 1); nil for a breathing exercise.
        public var step: Int? = nil
    }

    /// One line of the event log.
    public struct LoggedEvent {
        public var time: Double
        public var text: String
    }

    public let configuration: Configuration
    public var mode = Mode.normal
    /// Time of the newest event: the session clock in the title ticks with data only.
    public private(set) var now: Double
    public private(set) var latest: MetricsReport?
    public private(set) var trend = TrendHistory()
    public private(set) var link: LinkStatus?
    public private(set) var sensorName: String?
    public private(set) var sensorAddress: String?
    public private(set) var location: String?
    public private(set) var battery: Int?
    public private(set) var contact: HeartRateMeasurement.SensorContact?
    public private(set) var beats = 0
    public private(set) var malformed = 0
    /// The stress prompt, from the suggestion until the exercise starts or the episode ends.
    public private(set) var prompt: BreathingCoach.Suggestion?
    public private(set) var exercise: Exercise?
    /// The exercise that ended and waits for its measured effect: its pattern and length.
    public private(set) var finishedExercise: (pattern: String, seconds: Double)?
    public private(set) var effect: ExerciseEffect?
    /// The strap's accelerometer, its latest second and when: nil without one.
    public private(set) var motion: (second: MotionSecond, time: Double)?
    /// Whether the desktop saw input within the last minute; nil where no source answers.
    public private(set) var desk: DeskPresence?
    /// Newest last.
    public private(set) var log: [LoggedEvent] = []
    /// Set once the session has ended (the demo stays on screen until `q`).
    public private(set) var summary: SessionSummary?
    /// Stress episodes ended so far, and the newest one not yet answered (`s` asks about it).
    public private(set) var stressEpisodes = 0
    public internal(set) var unanswered: Int?

    public static let logLength = 20

    public init(configuration: Configuration) {
        self.configuration = configuration
        now = configuration.start
    }

    public mutating func apply(_ event: SessionEvent, at time: Double) {
        now = max(now, time)
        switch event {
        case .live(let event): apply(event, at: time)
        case .link(let status): link = status
        case .sensor(.identity(let name, let address)):
            sensorName = name
            sensorAddress = address
        case .sensor(.bodySensorLocation(let place)): location = place
        case .sensor(.batteryLevel(let percent)): battery = percent
        case .notice, .note, .checkIn: break
        case .motion(let second): motion = (second, time)
        case .desk(let change): desk = change.presence
        case .label(let label): if label.episode == unanswered { unanswered = nil }
        case .resonanceStep(let mark):
            // The stepped pacer: each step paces its rate from its start; the end clears it.
            exercise = mark.rate.map { rate in
                Exercise(
                    pacer: BreathingPacer(pattern: .resonance(breathsPerMinute: rate, inhaleShare: mark.inhaleShare), start: time),
                    start: time, time: time, step: mark.index + 1)
            }
            prompt = nil
        }
        if case .live(.metrics) = event { return }
        if let text = SessionText.line(for: event) {
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
        case .episode(let episode) where episode.kind == .stress:
            prompt = nil
            stressEpisodes += 1
            unanswered = stressEpisodes
        case .suggestion(let suggestion): prompt = suggestion
        case .exercise(let mark) where mark.kind == .started:
            // The pacer starts when the dashboard learns of the exercise: a demo step played late
            // carries its planned time, and the pacer must not jump ahead by the delay.
            let begin = max(mark.time, now)
            exercise = Exercise(pacer: BreathingPacer(pattern: configuration.pattern, start: begin), start: begin, time: begin)
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

    /// Moves the pacer to `time` (a frame of its animation); the phase changes passed.
    @discardableResult
    public mutating func advancePacer(to time: Double) -> [BreathingPacer.Cue] {
        guard var running = exercise, time > running.time else { return [] }
        let cues = running.pacer.advance(to: time)
        running.time = time
        exercise = running
        return cues
    }

    /// The exercise has run its configured length and should be stopped.
    public func exerciseIsDue(at time: Double) -> Bool {
        exercise.map { time - $0.start >= configuration.exerciseSeconds } ?? false
    }

    public mutating func finish(_ summary: SessionSummary) {
        self.summary = summary
        mode = .normal
    }

    /// Seconds since the session started, on the clock of the newest event.
    public var sessionSeconds: Double { max(0, now - configuration.start) }
}
