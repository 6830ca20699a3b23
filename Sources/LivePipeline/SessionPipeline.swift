import HRV
import HeartRateProtocol

/// The live pipeline: Heart Rate Measurement packets in, beats, metrics and verdicts out. Pure:
/// time comes with each packet, so replaying packets gives the same events.
public struct SessionPipeline {
    private var pipeline: HRVPipeline
    /// A reference, so the pipeline's update closures can reach it while the pipeline mutates.
    private let observer: Observer
    public private(set) var malformedPackets = 0
    /// Notifications that carried beats.
    public private(set) var packets = 0
    /// End of the newest received beat on the session's RR timeline.
    public private(set) var received = RRInterval(microticks: 0)
    /// When the newest notification with beats came, and where the beat timeline ended then.
    private var lastPacket: (time: Double, seconds: Double)?

    public init(pipeline: HRVPipeline.Configuration, judge: BeatJudge) {
        self.pipeline = HRVPipeline(configuration: pipeline)
        observer = Observer(judge: judge)
    }

    /// One notification, received at `time` (Unix seconds).
    public mutating func receive(_ bytes: [UInt8], at time: Double, emit: (LiveEvent) -> Void) {
        do {
            receive(try HeartRateMeasurement(parsing: bytes), at: time, emit: emit)
        } catch {
            malformedPackets += 1
            emit(.malformed(MalformedPacket(time: time, bytes: bytes, error: error, count: malformedPackets)))
        }
    }

    /// One parsed notification, received at `time` (Unix seconds); replay enters here.
    public mutating func receive(_ measurement: HeartRateMeasurement, at time: Double, emit: (LiveEvent) -> Void) {
        guard !measurement.rrIntervals.isEmpty else { return }
        packets += 1
        // Without contact the strap's intervals are noise: they are still reported and logged,
        // and the detector says `unknown` for them rather than stress. The flag changes only with
        // beats, so a replay of the beats alone judges the same.
        let observer = observer
        observer.contact = measurement.sensorContact != .notDetected
        let times = ReceivedBeat.times(of: measurement.rrIntervals, arrivedAt: time)
        for (ticks, beatTime) in zip(measurement.rrIntervals, times) {
            emit(.beat(ReceivedBeat(
                time: beatTime, received: time, packet: packets, ticks: ticks, heartRate: measurement.heartRate,
                sensorContact: measurement.sensorContact, energyExpended: measurement.energyExpended,
                sequence: pipeline.recording.rawBeats + 1)))
            let interval = RRInterval(ticks: ticks)
            received.microticks += interval.microticks
            pipeline.append(interval) { observer.observe($0, emit: emit) }
        }
        lastPacket = (time, received.seconds)
        guard let (latest, assessment) = observer.latest else { return }
        emit(.metrics(MetricsReport(
            time: time, sessionSeconds: latest.beat.seconds, rmssdWindow: latest.rmssdWindow,
            sdnnWindow: latest.sdnnWindow, assessment: assessment, baseline: observer.judge.detector.baseline,
            reference: observer.judge.detector.referenceLevel,
            judgedBeats: pipeline.recording.beats, dfaAlpha1: observer.rollingDFA.alpha1(),
            coherence: observer.runningExercise.flatMap { observer.judge.effects[$0.index].coherence.latest },
            stressOnset: observer.takeStressOnset())))
    }

    /// Input at the desk, or none: from now on the detector takes input as evidence of sitting.
    /// A replay enters it where the session file has it, between the same notifications.
    public mutating func receive(desk presence: DeskPresence) {
        observer.judge.detector.isSitting = presence.isSittingEvidence
    }

    /// A second of the strap's accelerometer that ended at `time` (Unix seconds), placed on the
    /// beat timeline from the newest notification's by its time to the millisecond (`MotionTime`);
    /// before the first beat it says nothing.
    public mutating func receive(_ motion: MotionSecond, at time: Double) {
        guard let lastPacket else { return }
        let time = MotionTime(time).seconds
        observer.judge.detector.observe(motion, at: lastPacket.seconds + max(0, time - lastPacket.time))
    }

    /// The link dropped: beats before and after are not neighbours.
    public mutating func breakContinuity(at time: Double, emit: (LiveEvent) -> Void) {
        let observer = observer
        pipeline.breakContinuity { observer.observe($0, emit: emit) }
        emit(.gap(time: time))
    }

    /// Starts measuring a breathing exercise from the newest received beat; a running one is
    /// stopped first.
    public mutating func startExercise(_ pattern: String, at time: Double, emit: (LiveEvent) -> Void) {
        if observer.runningExercise != nil { stopExercise(at: time, emit: emit) }
        let start = received.seconds
        observer.startExercise(ExerciseMark(kind: .started, pattern: pattern, time: time, sessionSeconds: start))
        emit(.exercise(ExerciseMark(kind: .started, pattern: pattern, time: time, sessionSeconds: start)))
    }

    /// Stops the running exercise, if any; its effect follows once the minutes after it are in.
    public mutating func stopExercise(at time: Double, emit: (LiveEvent) -> Void) {
        guard let pattern = observer.stopExercise(at: received.seconds) else { return }
        emit(.exercise(ExerciseMark(kind: .stopped, pattern: pattern, time: time, sessionSeconds: received.seconds)))
    }

    public var isExercising: Bool { observer.runningExercise != nil }

    /// The session ends: the look-ahead is released, open episodes close, a running exercise stops
    /// and every effect not yet reported is reported with what was measured.
    public mutating func finish(at time: Double, emit: (LiveEvent) -> Void) {
        stopExercise(at: time, emit: emit)
        let observer = observer
        pipeline.finish { observer.observe($0, emit: emit) }
        let ended = observer.judge.episodes.count
        observer.judge.finish()
        for episode in observer.judge.episodes[ended...] { emit(.episode(episode)) }
        for effect in observer.judge.effects[observer.reportedEffects...] { emit(.effect(effect)) }
        observer.reportedEffects = observer.judge.effects.count
    }

    public var recording: RecordingTotals { pipeline.recording }
    public var detections: ArtifactCounts { pipeline.detections }
    public var configuration: HRVPipeline.Configuration { pipeline.configuration }
    public var judge: BeatJudge { observer.judge }
}

/// Judges each pipeline update and remembers the latest for the metrics report.
private final class Observer {
    var judge: BeatJudge
    var contact = true
    var latest: (update: HRVUpdate, assessment: StressAssessment)?
    var rollingDFA = RollingDFA()
    /// A stress episode declared since the last metrics report (on any of its beats, not only the last).
    private var stressOnset: StressEpisode?
    /// Index in `judge.effects` of the exercise under way.
    var runningExercise: (index: Int, pattern: String)?
    /// Effects before this index in `judge.effects` have been reported.
    var reportedEffects = 0
    /// Beats placed in the last `ExerciseEffect.lead` seconds: an exercise started now measures
    /// its minute before from them, as a replay that knows the exercise from the start would.
    private var recentBeats: [Beat] = []
    private var recentStart = 0

    init(judge: BeatJudge) {
        self.judge = judge
    }

    func observe(_ update: HRVUpdate, emit: (LiveEvent) -> Void) {
        let ended = judge.episodes.count
        let suggested = judge.suggestions.count
        emit(.placed(update.beat))
        let assessment = judge.judge(update, sensorContact: contact)
        latest = (update, assessment)
        if let declared = assessment.episodeStarted { stressOnset = declared }
        rollingDFA.add(update.beat)
        remember(update.beat)
        for episode in judge.episodes[ended...] { emit(.episode(episode)) }
        for suggestion in judge.suggestions[suggested...] { emit(.suggestion(suggestion)) }
        while reportedEffects < judge.effects.count, runningExercise?.index != reportedEffects,
            judge.effects[reportedEffects].isSettled(at: update.beat.seconds)
        {
            emit(.effect(judge.effects[reportedEffects]))
            reportedEffects += 1
        }
    }

    func takeStressOnset() -> StressEpisode? {
        defer { stressOnset = nil }
        return stressOnset
    }

    func startExercise(_ mark: ExerciseMark) {
        var effect = ExerciseEffect(start: mark.sessionSeconds, end: .infinity)
        for beat in recentBeats[recentStart...] { effect.observe(beat) }
        runningExercise = (judge.effects.count, mark.pattern)
        judge.effects.append(effect)
    }

    /// Ends the running exercise at `seconds`; returns its pattern.
    func stopExercise(at seconds: Double) -> String? {
        guard let (index, pattern) = runningExercise else { return nil }
        judge.effects[index].end = seconds
        runningExercise = nil
        return pattern
    }

    private func remember(_ beat: Beat) {
        recentBeats.append(beat)
        while beat.seconds - recentBeats[recentStart].seconds > ExerciseEffect.lead { recentStart += 1 }
        // Compact now and then rather than shifting the array every beat.
        if recentStart > 512 {
            recentBeats.removeFirst(recentStart)
            recentStart = 0
        }
    }
}
