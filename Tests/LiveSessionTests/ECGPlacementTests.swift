import HRV
import LivePipeline
import LiveSession
import PolarMeasurementData
import SessionLog
import Testing

/// The strap's ECG frames placed on the session's clock (`SessionRun.receive(ecg:)`): spaced by
/// the strap's clock, anchored at the earliest arrival.
@Suite struct ECGPlacementTests {
    final class Collector: SessionOutput {
        var runs: [ECGSamples] = []
        func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {}
        func finish(_ summary: SessionSummary) {}
        func ecgArrived(_ samples: ECGSamples) { runs.append(samples) }
    }

    /// The H10's clock after power-up: 2019-01-01 in ns since 2000 (shared/POLAR-PMD.md).
    static let strapEpoch: UInt64 = 599_616_000_000_000_000

    /// Frame `index` of 73 samples at `rate` Hz (the strap's clock), its last sample at `strapSeconds`.
    static func frame(_ index: Int, strapSeconds: Double) -> PMDFrame {
        PMDFrame(
            measurementType: .ecg, timestamp: strapEpoch + UInt64(strapSeconds * 1e9), frameType: 0,
            samples: .ecg((0..<73).map { Int32(index * 73 + $0) }))
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
            run.receive(ecg: Self.frame(index, strapSeconds: 10 + strap), sampleRate: 130, at: session + strap + delays[index % delays.count])
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

    /// The strap's clock jumping by an hour, or a gap in the link, anchors the stream again at its
    /// frames' arrival.
    @Test func aJumpOrAGapAnchorsAgain() {
        let collector = Collector()
        let run = Self.run(collector)
        run.receive(ecg: Self.frame(0, strapSeconds: 10), sampleRate: 130, at: 1000)
        run.receive(ecg: Self.frame(1, strapSeconds: 3610.56), sampleRate: 130, at: 1000.6)
        #expect(abs(collector.runs[1].time(ofSample: 72) - 1000.6) < 1e-6)
        run.breakContinuity(at: 1001)
        run.receive(ecg: Self.frame(2, strapSeconds: 3611.12), sampleRate: 130, at: 1020)
        #expect(abs(collector.runs[2].time(ofSample: 72) - 1020) < 1e-6)
        #expect(abs(collector.runs[2].rate - 130) < 0.001, "a stream started again has no previous frame: the nominal rate")
    }
}
