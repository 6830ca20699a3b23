import HRV
import HeartRateProtocol
import LivePipeline
import Platform
import PolarMeasurementData
import SelfReport
import SessionLog

/// One running session: the live pipeline and the outputs each of its events goes to. `monitor`
/// feeds it from the strap, `demo` from the simulator; both hand it the time of each event, so
/// the demo's accelerated clock runs through the same code.
public final class SessionRun {
    public private(set) var session: SessionPipeline
    private var outputs: [SessionOutput]
    /// Where `hrvmon note` reaches the session, until it ends.
    private var notes: NoteInbox?
    public private(set) var isFinished = false
    /// Where each stress episode began (seconds into the session), in order: episode n is the n-th.
    private var stressStarts: [Double] = []
    /// The accelerometer's samples into seconds of motion, at the strap's rate.
    private var motion: MotionMeter?
    /// The Measurement Data's samples onto the session's clock, once for every output.
    private var placement = MeasurementDataPlacement()

    public init(session: SessionPipeline, outputs: [SessionOutput]) {
        self.session = session
        self.outputs = outputs
    }

    /// Adds an output; `first` puts it before the others, so (for the session file) a line is
    /// on disk before anyone has seen it.
    public func add(_ output: SessionOutput, first: Bool = false) {
        if first { outputs.insert(output, at: 0) } else { outputs.append(output) }
    }

    /// One notification's bytes, received at `time`.
    public func receive(_ bytes: [UInt8], at time: Double) {
        receive(bytes, parsed: try? HeartRateMeasurement(parsing: bytes), at: time)
    }

    /// `bytes` with what they parse into (nil: malformed), for a caller that has parsed them already.
    func receive(_ bytes: [UInt8], parsed: HeartRateMeasurement?, at time: Double) {
        guard let measurement = parsed else {
            return session.receive(bytes, at: time) { report(.live($0), at: time) }  // malformed: said as such
        }
        if !measurement.rrIntervals.isEmpty {
            for output in outputs { output.notificationArrived(measurement, at: time) }
        }
        session.receive(measurement, at: time) { report(.live($0), at: time) }
    }

    /// The desk's presence changed (`DeskWatch`): the detector takes input as evidence of sitting
    /// from the next beat on, and the change is reported (the session file keeps it for a replay).
    public func observeDesk(_ change: DeskChange, at time: Double) {
        session.receive(desk: change.presence)
        report(.desk(change), at: time)
    }

    /// A frame of the strap's Measurement Data (or of the demo strap's) that came at `time`:
    /// its samples placed on the session's clock (once, so every output has the same times) to
    /// the outputs that take the samples themselves (LSL), an accelerometer's into motion, an
    /// ECG's to the session file.
    public func receive(_ frame: PMDFrame, sampleRate: Double, at time: Double) {
        let times = placement.sampleTimes(of: frame, sampleRate: sampleRate, arrivedAt: time)
        for output in outputs { output.measurementDataArrived(frame, sampleRate: sampleRate, sampleTimes: times, at: time) }
        switch frame.samples {
        case .acceleration(let samples):
            receive(acceleration: samples.lazy.map { SIMD3(Double($0.x), Double($0.y), Double($0.z)) }, sampleRate: sampleRate, at: time)
        case .ecg(let microvolts):
            record(ecg: microvolts, at: times, sampleRate: sampleRate)
        }
    }

    /// Accelerometer samples (mG; x, y, z with z through the strap's face) that came at `time`,
    /// from the strap's Measurement Data or the demo's simulated strap: each second they complete
    /// is judged with and reported as motion.
    public func receive(acceleration samples: some Sequence<SIMD3<Double>>, sampleRate: Double, at time: Double) {
        if motion?.sampleRate != sampleRate { motion = MotionMeter(sampleRate: sampleRate) }
        for sample in samples {
            guard let second = motion?.append(x: sample.x, y: sample.y, z: sample.z) else { continue }
            session.receive(second, at: time)
            report(.motion(second), at: time)
        }
    }

    /// ECG samples at their placed `times` (evenly spaced by the strap's clock) to the outputs; a
    /// single sample is `sampleRate` from the next.
    private func record(ecg microvolts: [Int32], at times: [Double], sampleRate: Double) {
        guard let first = times.first, let last = times.last else { return }
        let period = times.count > 1 ? (last - first) / Double(times.count - 1) * 1e9 : 1e9 / sampleRate
        let samples = ECGSamples(startMicroseconds: Int64((first * 1e6).rounded()), periodNanoseconds: Int64(period.rounded()), microvolts: microvolts)
        for output in outputs { output.ecgArrived(samples) }
    }

    /// The beats before and after `time` are not neighbours (and the ECG starts anew).
    public func breakContinuity(at time: Double) {
        placement.reset()
        session.breakContinuity(at: time) { report(.live($0), at: time) }
    }

    /// Starts a breathing exercise, or stops the one under way.
    /// Starts the configured breathing exercise, or stops the one running.
    public func toggleExercise(at time: Double) {
        if session.isExercising {
            session.stopExercise(at: time) { report(.live($0), at: time) }
        } else {
            session.startExercise(session.judge.coach.pattern.name, at: time) { report(.live($0), at: time) }
        }
    }

    public func report(_ event: SessionEvent, at time: Double) {
        if case .live(.episode(let episode)) = event, episode.kind == .stress { stressStarts.append(episode.start) }
        var line = SessionLine(event, at: time)
        for output in outputs { output.handle(event, at: time, line: &line) }
    }

    /// Takes notes from `hrvmon note` into the session until it finishes; when another session
    /// takes them, says so as a notice.
    public func takeNotes(loop: EventLoop, clock: @escaping () -> Double) {
        do {
            notes = try NoteInbox(loop: loop) { [unowned self] message in report(message, at: clock()) }
        } catch {
            report(.notice("`hrvmon note` cannot reach this session: \(error)"), at: clock())
        }
    }

    /// Records the wearer's answer about stress episode `episode` (from 1) as a `label` line.
    public func label(episode: Int, _ answer: EpisodeAnswer, via: String, at time: Double) {
        guard stressStarts.indices.contains(episode - 1) else { return }
        report(.label(EpisodeLabel(episode: episode, start: stressStarts[episode - 1], answer: answer, via: via)), at: time)
    }

    /// Ends the session: no more notes (`hrvmon note` says none runs, even while the demo's
    /// dashboard waits for q), the pipeline's last events, then the summary.
    public func finish(at time: Double, seconds: Double) {
        isFinished = true
        notes?.receive()
        notes = nil
        session.finish(at: time) { report(.live($0), at: time) }
        let summary = SessionSummary(
            time: time, seconds: seconds, beats: session.recording.rawBeats, malformed: session.malformedPackets,
            metrics: session.recording.metrics, baseline: session.judge.detector.baseline,
            stressSeconds: session.judge.episodes.stressSeconds,
            effects: session.judge.effects)
        for output in outputs { output.finish(summary) }
    }
}
