import HRV
import LivePipeline
import TestSupport
import Testing

/// Where the pipeline puts a second of the chest accelerometer on the beat timeline.
@Suite struct MotionPlacementTests {
    /// By its time to the millisecond (`MotionTime`), as the session file keeps it, so that a
    /// replay puts it in the same place: a second that came 0.4 ms before a whole second counts
    /// from that whole second, and the detector still trusts it 5 s on (not 0.4 ms less).
    @Test func aSecondIsPlacedByItsTimeToTheMillisecond() {
        let baseline = Baseline(source: .personal, restingHR: 60, lnRMSSDMean: 3.7, lnRMSSDSD: 0.2, samples: 30)
        var pipeline = SessionPipeline(pipeline: .init(), judge: BeatJudge(detector: StressDetector(baseline: baseline)))
        var judged: [(seconds: Double, motion: MotionSecond.Level?)] = []
        for second in 1...30 {
            // A beat of exactly 1 s a second: notification k ends the beat timeline at k s.
            pipeline.receive(Packet.measurement(heartRate: 60, rr: [1024]), at: 1_000 + Double(second)) { event in
                if case .metrics(let report) = event { judged.append((report.sessionSeconds, report.assessment.motion)) }
            }
            if second == 10 { pipeline.receive(MotionSecond(level: .still, intensity: 5, posture: .upright), at: 1_010.9996) }
        }
        // Placed at 11 s on the beat timeline (1,011.000 s), it speaks for the beats up to 16 s.
        let lastKnown = judged.last { $0.motion != nil }
        #expect(lastKnown?.seconds == 16 && lastKnown?.motion == .still, "\(judged.map { "\($0.seconds): \(String(describing: $0.motion))" })")
    }
}
