import HeartRateProtocol
import LabStreamingLayer
import LivePipeline
import Platform
import PolarMeasurementData
import SessionLog

/// The session on the Lab Streaming Layer (`--lsl`): every received beat as one sample of the
/// sensor's RR stream, stamped at the beat, and the session's markers (`SessionMarkers`). The
/// streams open when the sensor is known, as its identity is in their info; the accelerometer's
/// and ECG's when their first frame comes, each sample stamped by the strap's sample clock
/// placed on the session's clock by `SessionRun` (`MeasurementDataPlacement`, the times the
/// session file's ECG has) and laid on LSL's clock as the beats are. Pushing never blocks.
public final class LSLPublisher: SessionOutput {
    /// How a session time (Unix seconds, the `t` of its lines) becomes an LSL timestamp.
    public enum Timestamps {
        /// Live: the event's wall-clock time moved onto LSL's clock by their difference, read
        /// afresh at most once a second: the beats of a notification share one reading, so their
        /// spacing is their RR exactly (two readings per beat put microseconds of scheduling
        /// between them), and a step of the wall clock is followed within a second.
        case live
        /// Session time laid on LSL's clock from the start: LSL's clock when the publisher was
        /// made, plus the session seconds since `start`. The demo's accelerated time.
        case session(start: Double)
    }

    private let library: LSLLibrary
    private let timestamps: Timestamps
    /// LSL's clock when the publisher was made.
    private let lslStart: Double
    /// LSL's clock minus the wall clock, and LSL's clock when that was read (`Timestamps.live`).
    private var clockOffset: (value: Double, readAt: Double)?
    private var streams: SensorStreams?
    private var markers = SessionMarkers()
    /// Markers before the streams could open (a note before the sensor was found), with their times.
    private var pending: [(text: String, time: Double)] = []
    private var announced = false
    private var announcedMeasurementData: Set<PMDMeasurementType> = []
    /// The last timestamp pushed on each Measurement Data stream: a later anchor never sends one back.
    private var lastPushed: [PMDMeasurementType: Double] = [:]
    private var failed = false
    /// Told what the user should know, with the time of the event that led to it: the streams
    /// published (once), or that they cannot be opened or a push failed (once; the session goes on
    /// without them).
    public var onNotice: (_ message: String, _ time: Double) -> Void = { _, _ in }

    /// `streams`: opened already (the demo knows its strap from the start); nil to open them when
    /// the sensor reports who it is.
    public init(library: LSLLibrary, timestamps: Timestamps, streams: SensorStreams? = nil) {
        self.library = library
        self.timestamps = timestamps
        self.streams = streams
        lslStart = library.now
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        switch event {
        case .sensor(.identity(let name, let address)):
            open(sensorName: name, address: address, at: time)
            announce(at: time)
        case .live(.beat(let beat)):
            // The link reports the sensor before its first notification; this is only a safeguard.
            if streams == nil { open(sensorName: nil, address: "unknown", at: time) }
            if let streams { report(streams.rr.push(Float(RRTicks.milliseconds(beat.ticks)), at: timestamp(beat.time)), at: time) }
        default:
            break
        }
        for marker in markers.markers(for: event) {
            if let streams { report(streams.markers.push(marker, at: timestamp(time)), at: time) } else { pending.append((marker, time)) }
        }
    }

    /// The frame's samples on the stream of its type (opened with the first), each at its time.
    public func measurementDataArrived(_ frame: PMDFrame, sampleRate: Double, sampleTimes: [Double], at time: Double) {
        guard let streams, !failed else { return }
        let type = frame.measurementType
        let values: [[Float]]
        switch frame.samples {
        case .acceleration(let samples) where !frame.isCompressed:
            values = samples.map { [Float($0.x), Float($0.y), Float($0.z)] }
        case .ecg(let samples):
            values = samples.map { [Float($0)] }
        default:
            return  // delta frames are in the sensor's counts, not mg; the H10 sends none
        }
        let outlet: StreamOutlet
        do {
            guard let opened = try streams.outlet(for: type, rate: sampleRate) else { return }
            if announcedMeasurementData.insert(type).inserted {
                onNotice("on the Lab Streaming Layer as \(opened.stream.name) too", time)
            }
            outlet = opened
        } catch {
            return fail("cannot publish the strap's \(type) on the Lab Streaming Layer: \(error)", at: time)
        }
        for (sample, sampleTime) in zip(values, sampleTimes) {
            let stamp = max(timestamp(sampleTime), lastPushed[type].map { $0.nextUp } ?? -.infinity)
            lastPushed[type] = stamp
            if let failure = outlet.push(sample, at: stamp) { return report(failure, at: time) }
        }
    }

    /// The streams stay open after the session's end, until `close`.
    public func finish(_ summary: SessionSummary) {}

    /// Closes the streams, once connected inlets have had `grace` seconds to take what liblsl has
    /// not sent yet (it drops that when an outlet closes); inlets then see the streams go. For the
    /// way out, when nothing waits on the event loop any more.
    public func close(grace: Double = 0.5) {
        if let streams, ([streams.rr, streams.markers] + streams.measurementData.values).contains(where: \.hasInlet) { MonotonicClock().sleep(until: grace) }
        streams = nil
    }

    private func open(sensorName: String?, address: String, at time: Double) {
        guard streams == nil, !failed else { return }
        do {
            let opened = try SensorStreams(sensorName: sensorName, address: address, library: library)
            streams = opened
            for marker in pending { report(opened.markers.push(marker.text, at: timestamp(marker.time)), at: time) }
            pending = []
        } catch {
            fail("cannot publish the LSL streams: \(error)", at: time)
        }
    }

    /// Says which streams the session is on, once they are open.
    private func announce(at time: Double) {
        guard let streams, !announced else { return }
        announced = true
        onNotice("on the Lab Streaming Layer as \(streams.rr.stream.name) and \(streams.markers.stream.name) (liblsl \(library.version / 100).\(library.version % 100))", time)
    }

    private func timestamp(_ time: Double) -> Double {
        switch timestamps {
        case .live:
            let offset = if let clockOffset, library.now - clockOffset.readAt <= 1 { clockOffset } else { readClockOffset() }
            clockOffset = offset
            return time + offset.value
        case .session(let start):
            return lslStart + (time - start)
        }
    }

    /// LSL's clock minus the wall clock, the wall read between two readings of LSL's: the
    /// tightest of a few tries, so a preemption between two readings (milliseconds on a busy
    /// machine) does not shift every timestamp of the next second. Within 20 µs, or the best of 10.
    private func readClockOffset() -> (value: Double, readAt: Double) {
        var best = (width: Double.infinity, value: 0.0, readAt: 0.0)
        for _ in 0..<10 where best.width > Self.clockReadingWidth {
            let before = library.now
            let wall = WallClock.now()
            let after = library.now
            if after - before < best.width { best = (after - before, (before + after) / 2 - wall, after) }
        }
        return (best.value, best.readAt)
    }

    /// How far apart two readings of LSL's clock around the wall clock's may be (`readClockOffset`).
    public static let clockReadingWidth = 20e-6

    private func report(_ failure: LSLFailure?, at time: Double) {
        if let failure { fail("cannot push to the LSL streams: \(failure)", at: time) }
    }

    private func fail(_ message: String, at time: Double) {
        guard !failed else { return }
        failed = true
        onNotice(message + "; the session goes on without them", time)
    }
}

extension SessionRun {
    /// Publishes the session on the Lab Streaming Layer; which streams, or a failure to, is
    /// reported as a notice.
    public func publishToLSL(_ publisher: LSLPublisher) {
        publisher.onNotice = { [unowned self] message, time in report(.notice(message), at: time) }
        add(publisher)
    }
}
