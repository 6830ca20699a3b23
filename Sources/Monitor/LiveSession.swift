import HRV
import HeartRateProtocol

/// The live pipeline: Heart Rate Measurement packets in, beats, metrics and verdicts out. Pure:
/// time comes with each packet, so replaying packets gives the same events.
public struct LiveSession {
    private var pipeline: HRVPipeline
    /// A reference, so the pipeline's update closures can reach it while the pipeline mutates.
    private let observer: Observer
    public private(set) var malformedPackets = 0

    public init(pipeline: HRVPipeline.Configuration, judge: BeatJudge) {
        self.pipeline = HRVPipeline(configuration: pipeline)
        observer = Observer(judge: judge)
    }

    /// One notification, received at `time` (Unix seconds).
    public mutating func receive(_ bytes: [UInt8], at time: Double, emit: (LiveEvent) -> Void) {
        let measurement: HeartRateMeasurement
        do {
            measurement = try HeartRateMeasurement(parsing: bytes)
        } catch {
            malformedPackets += 1
            emit(.malformed(MalformedPacket(time: time, bytes: bytes, error: error, count: malformedPackets)))
            return
        }
        // Without contact the strap's intervals are noise: they are still reported and logged,
        // and the detector says `unknown` for them rather than stress.
        let observer = observer
        observer.contact = measurement.sensorContact != .notDetected
        var remaining = measurement.rrIntervals.reduce(0.0) { $0 + RRTicks.milliseconds($1) / 1000 }
        for ticks in measurement.rrIntervals {
            remaining -= RRTicks.milliseconds(ticks) / 1000
            emit(.beat(ReceivedBeat(
                time: time - remaining, ticks: ticks, heartRate: measurement.heartRate,
                sensorContact: measurement.sensorContact, energyExpended: measurement.energyExpended,
                sequence: pipeline.recording.rawBeats + 1)))
            pipeline.append(RRInterval(ticks: ticks)) { observer.observe($0, emit: emit) }
        }
        guard !measurement.rrIntervals.isEmpty, let (latest, assessment) = observer.latest else { return }
        emit(.metrics(MetricsReport(
            time: time, sessionSeconds: latest.beat.seconds, rmssdWindow: latest.rmssdWindow,
            sdnnWindow: latest.sdnnWindow, assessment: assessment, judgedBeats: pipeline.recording.beats)))
    }

    /// The link dropped: beats before and after are not neighbours.
    public mutating func breakContinuity(emit: (LiveEvent) -> Void) {
        let observer = observer
        pipeline.breakContinuity { observer.observe($0, emit: emit) }
    }

    /// The session ends: the look-ahead is released and open episodes close.
    public mutating func finish(emit: (LiveEvent) -> Void) {
        let observer = observer
        pipeline.finish { observer.observe($0, emit: emit) }
        let ended = observer.judge.episodes.count
        observer.judge.finish()
        for episode in observer.judge.episodes[ended...] { emit(.episode(episode)) }
    }

    public var recording: RecordingTotals { pipeline.recording }

}

/// Judges each pipeline update and remembers the latest for the metrics report.
private final class Observer {
    var judge: BeatJudge
    var contact = true
    var latest: (update: HRVUpdate, assessment: StressAssessment)?

    init(judge: BeatJudge) {
        self.judge = judge
    }

    func observe(_ update: HRVUpdate, emit: (LiveEvent) -> Void) {
        let ended = judge.episodes.count
        let suggested = judge.suggestions.count
        let assessment = judge.judge(update, sensorContact: contact)
        latest = (update, assessment)
        for episode in judge.episodes[ended...] { emit(.episode(episode)) }
        for suggestion in judge.suggestions[suggested...] { emit(.suggestion(suggestion)) }
    }
}
