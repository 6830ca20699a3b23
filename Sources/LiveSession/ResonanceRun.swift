import HRV
import LivePipeline
import Platform
import Presentation
import SessionLog

/// `hrvmon resonance` on a running session: after a lead-in of ordinary breathing, the stepped
/// pacer — each step a `resonanceStep` event, which the dashboard paces and the session file
/// keeps — the running peak-to-trough heart rate of the step as each breath completes, and at
/// the session's end the assessment of its beats.
///
/// The pacer runs on the session's clock; the beats on the strap's RR timeline. Each step is
/// placed on that timeline at the pacer's time less the smallest delay yet seen between a beat's
/// end on the timeline and its notification's arrival (since the last gap), which is the link's
/// latency within the strap's one-second batching.
public final class ResonanceRun: SessionOutput {
    public let rates: [Double]
    public let stepSeconds: Double
    public let settleSeconds: Double
    public let inhaleShare = 0.4
    /// Seconds after the last step before the session ends: the step's last beats are still on
    /// their way (a strap batches them for a second, the artifact corrector holds three).
    public static let tailSeconds = 3.0

    private unowned let run: SessionRun
    private var timeline = 0.0
    private var delay: Double?
    /// A gap was seen: the next beat starts the delay's minimum anew.
    private var delayIsStale = false
    /// Told the time of the session's first beat, once (a live run's lead-in starts there).
    public var onFirstBeat: ((Double) -> Void)?
    private var marks: [ResonanceStepMark] = []
    private var beats: [Beat] = []
    private var reportedBreaths = 0
    private var checkedBreaths = 0
    /// Known once the session has finished.
    public private(set) var result: ResonanceResult?
    public private(set) var schedule: ResonanceProtocol?

    public init(run: SessionRun, rates: [Double], stepSeconds: Double, settleSeconds: Double) {
        self.run = run
        self.rates = rates
        self.stepSeconds = stepSeconds
        self.settleSeconds = settleSeconds
        run.add(self)
    }

    /// Starts the steps at `start` (session clock), each `stepSeconds` after the previous; the
    /// session should end at `start` + the steps + ``tailSeconds``. `at` runs a closure at a time
    /// of the session clock.
    public func begin(at start: Double, scheduling at: (Double, @escaping () -> Void) -> Void) {
        for index in 0...rates.count {
            let time = start + Double(index) * stepSeconds
            at(time) { [unowned self] in beginStep(index, at: time) }
        }
    }

    private func beginStep(_ index: Int, at time: Double) {
        let mark = ResonanceStepMark(
            index: index, rate: index < rates.count ? rates[index] : nil, stepSeconds: stepSeconds,
            settleSeconds: settleSeconds, inhaleShare: inhaleShare, time: time,
            // Without a beat since the start (or a gap), the newest place on the timeline is the best guess.
            sessionSeconds: delay.map { time - $0 } ?? timeline)
        marks.append(mark)
        reportedBreaths = 0
        checkedBreaths = 0
        run.report(.resonanceStep(mark), at: time)
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        switch event {
        case .live(.beat(let beat)):
            if timeline == 0, let onFirstBeat {
                self.onFirstBeat = nil
                onFirstBeat(time)
            }
            timeline += RRInterval(ticks: beat.ticks).seconds
            delay = delayIsStale ? beat.received - timeline : min(delay ?? .infinity, beat.received - timeline)
            delayIsStale = false
        case .live(.gap):
            delayIsStale = true
        case .live(.placed(let beat)) where !marks.isEmpty:
            beats.append(beat)
            reportRunningSwing(at: time)
        default:
            break
        }
    }

    /// The step's peak-to-trough heart rate so far, each time a breath of its scored part completes.
    private func reportRunningSwing(at time: Double) {
        guard let schedule = ResonanceStepMark.schedule(marks), let last = beats.last, let index = schedule.step(at: last.seconds),
              index == schedule.rates.count - 1
        else { return }
        // Whole breaths since the step began: nothing new to say between breaths.
        let breathsBegun = Int(schedule.cycles(index, at: last.seconds))
        guard breathsBegun > checkedBreaths else { return }
        checkedBreaths = breathsBegun
        let stepBeats = beats.drop { $0.seconds < schedule.scoredSpan(index).lowerBound }
        let step = ResonanceStep(index, of: schedule, beats: stepBeats, recordingEnd: .infinity)
        guard step.breaths > reportedBreaths, let swing = step.heartRateAmplitude else { return }
        reportedBreaths = step.breaths
        run.report(
            .notice("step \(index + 1) at \(Formatting.fixed(step.rate, digits: 1)) a minute: HR swing \(Formatting.fixed(swing, digits: 1)) bpm over \(Formatting.count(step.breaths, "breath"))"),
            at: time)
    }

    public func finish(_ summary: SessionSummary) {
        guard let schedule = ResonanceStepMark.schedule(marks) else { return }
        var assessment = ResonanceAssessment(schedule: schedule)
        for beat in beats { assessment.add(beat) }
        self.schedule = schedule
        result = assessment.finish()
    }
}
