import HRV
import LivePipeline
import LiveSession
import PolarMeasurementData
import SessionLog
import Testing

/// The strap's Measurement Data placed on the session's clock (`MeasurementDataPlacement`, once a
/// frame in `SessionRun`): spaced by the strap's clock, anchored at the earliest arrival, creeping
/// later by at most 0.1 ms a frame, anchored again after a jump, a timestamp going back or a gap;
/// the LSL publisher and the session file's ECG get the same times.
@Suite struct MeasurementDataPlacementTests {
    final class Collector: SessionOutput {
        var runs: [ECGSamples] = []
        /// Each frame's placed sample times, as the LSL publisher gets them.
        var frames: [(type: PMDMeasurementType, times: [Double])] = []
        func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {}
        func finish(_ summary: SessionSummary) {}
        func ecgArrived(_ samples: ECGSamples) { runs.append(samples) }
        func measurementDataArrived(_ frame: PMDFrame, sampleRate: Double, sampleTimes: [Double], at time: Double) {
            frames.append((frame.measurementType, sampleTimes))
        }
    }

    /// The H10's clock after power-up: 2019-01-01 in ns since 2000 (shared/POLAR-PMD.md).
    static let strapEpoch: UInt64 = 599_616_000_000_000_000

    /// Frame `index` of 73 samples at `rate` Hz (the strap's clock), its last sample at `strapSeconds`.
    static func frame(_ index: Int, strapSeconds: Double) -> PMDFrame {
        PMDFrame(
            measurementType: .ecg, timestamp: strapEpoch + UInt64(strapSeconds * 1e9), frameType: 0,
            samples: .ecg((0..<73).map { Int32(index * 73 + $0) }))
    }

    /// An accelerometer frame of 36 samples, its last at `strapSeconds`.
    static func accelerometerFrame(strapSeconds: Double) -> PMDFrame {
        PMDFrame(
            measurementType: .acc, timestamp: strapEpoch + UInt64(strapSeconds * 1e9), frameType: 1,
            samples: .acceleration(Array(repeating: .init(x: 0, y: 0, z: 1000), count: 36)))
    }

    static func run(_ collector: Collector) -> SessionRun {
        SessionRun(session: SessionPipeline(pipeline: .init(), judge: BeatJudge(detector: StressDetector())), outputs: [collector])
    }

    /// Frames that arrive 20 to 80 ms after their last sample: the samples follow on from frame to
    /// frame at the strap's spacing (its true rate, 129.9 Hz here, not the nominal 130), anchored 20 ms
    /// after they were taken whatever the order of the delays.
    @Test func framesFollowOnAnchoredAtTheEarliestArrival() {
        let collector = Collector()
        let run = Self.run(collector)
        let rate = 129.9
        let session = 1_800_000_000.0
        let delays = [0.08, 0.05, 0.02, 0.07, 0.03, 0.06, 0.02, 0.04]
        for index in 0..<40 {
            let strap = Double(index * 73 + 72) / rate
            run.receive(Self.frame(index, strapSeconds: 10 + strap), sampleRate: 130, at: session + strap + delays[index % delays.count])
        }
        let runs = collector.runs.dropFirst(3)  // once the earliest arrival has been seen
        for (earlier, later) in zip(runs, runs.dropFirst()) {
            let next = earlier.time(ofSample: earlier.microvolts.count)
            #expect(abs(later.start - next) < 0.0005, "\(later.start - next)")
        }
        #expect(runs.allSatisfy { abs($0.rate - rate) < 0.01 })
        let last = collector.runs[39]
        #expect(abs(last.time(ofSample: 72) - (session + Double(39 * 73 + 72) / rate + 0.02)) < 0.002)
    }

    /// The same sample has the same time for the LSL publisher and in the session file's ECG (to
    /// the file's microsecond), frame after frame, with the delays jittering.
    @Test func theLSLPublisherAndTheSessionFileGetTheSameTimes() {
        let collector = Collector()
        let run = Self.run(collector)
        let delays = [0.08, 0.05, 0.02, 0.07, 0.03]
        for index in 0..<20 {
            let strap = Double(index * 73 + 72) / 130
            run.receive(Self.frame(index, strapSeconds: 10 + strap), sampleRate: 130, at: 1_800_000_000 + strap + delays[index % delays.count])
        }
        #expect(collector.frames.count == 20 && collector.runs.count == 20)
        for (frame, run) in zip(collector.frames, collector.runs) {
            #expect(frame.times.count == run.microvolts.count)
            #expect(zip(frame.times, run.times).allSatisfy { abs($0 - $1) < 1e-6 }, "\(zip(frame.times, run.times).map { $0 - $1 }.max() ?? 0)")
        }
    }

    /// Frames that come 50 µs later each (the strap's clock slower than the computer's) are
    /// followed; a frame half a second late (the link stalling) moves the anchor by 0.1 ms only.
    @Test func aLaterAnchorIsFollowedByAtMostTheCreep() {
        let collector = Collector()
        let run = Self.run(collector)
        for index in 0..<20 {
            let strap = Double(index * 73 + 72) / 130
            run.receive(Self.frame(index, strapSeconds: 10 + strap), sampleRate: 130, at: 1000 + strap + 0.02 + Double(index) * 0.00005)
        }
        #expect(abs(collector.runs[19].time(ofSample: 72) - (1000 + Double(19 * 73 + 72) / 130 + 0.02 + 19 * 0.00005)) < 2e-6)
        let strap = Double(20 * 73 + 72) / 130
        run.receive(Self.frame(20, strapSeconds: 10 + strap), sampleRate: 130, at: 1000 + strap + 0.5)
        #expect(abs(collector.runs[20].time(ofSample: 72) - (1000 + strap + 0.02 + 19 * 0.00005 + 0.0001)) < 2e-6)
    }

    /// The strap's clock jumping by an hour, a gap in the link, or a frame whose timestamp goes
    /// back (the strap started its stream again) anchors the stream again at its frames' arrival,
    /// the last even within a second of where the old anchor would put it.
    @Test func aJumpAGapOrATimestampGoingBackAnchorsAgain() {
        let collector = Collector()
        let run = Self.run(collector)
        run.receive(Self.frame(0, strapSeconds: 10), sampleRate: 130, at: 1000)
        run.receive(Self.frame(1, strapSeconds: 3610.56), sampleRate: 130, at: 1000.6)
        #expect(abs(collector.runs[1].time(ofSample: 72) - 1000.6) < 1e-6)
        run.breakContinuity(at: 1001)
        run.receive(Self.frame(2, strapSeconds: 3611.12), sampleRate: 130, at: 1020)
        #expect(abs(collector.runs[2].time(ofSample: 72) - 1020) < 1e-6)
        #expect(abs(collector.runs[2].rate - 130) < 0.001, "a stream started again has no previous frame: the nominal rate")
        run.receive(Self.frame(3, strapSeconds: 3610.9), sampleRate: 130, at: 1020.3)
        #expect(abs(collector.runs[3].time(ofSample: 72) - 1020.3) < 1e-6)
    }

    /// Each measurement has its own anchor: an accelerometer whose frames come later does not
    /// move the ECG's.
    @Test func eachMeasurementIsAnchoredOnItsOwn() {
        let collector = Collector()
        let run = Self.run(collector)
        run.receive(Self.frame(0, strapSeconds: 10), sampleRate: 130, at: 1000.02)
        run.receive(Self.accelerometerFrame(strapSeconds: 10.1), sampleRate: 50, at: 1000.4)
        run.receive(Self.frame(1, strapSeconds: 10 + 73 / 130.0), sampleRate: 130, at: 1000.9)
        #expect(abs((collector.frames[1].times.last ?? 0) - 1000.4) < 1e-6)
        #expect(abs(collector.runs[1].time(ofSample: 72) - (1000.02 + 73 / 130.0 + 0.0001)) < 1e-6)
    }
}
