import Foundation
import LiveSession
import SessionLog
import Simulation
import TestSupport
import Testing

/// `hrvmon demo --ecg`: the demo strap streams its ECG in frames as an H10 does, and the session
/// file keeps every sample at the time the strap took it.
@Suite struct DemoECGTests {
    /// Frames of 73 samples, each coming as its last sample is taken; none without `ecg`.
    @Test func theDemoStrapStreamsFrames() {
        let steps = DemoTimeline(scenario: RecordedECG.scenario, seed: 1, ecg: true).steps
        let frames = steps.compactMap { step -> (Double, Int)? in
            guard case .ecg(let frame, _) = step.action else { return nil }
            return (step.seconds, frame)
        }
        #expect(frames.count == 120 * 130 / 73)
        #expect(frames.allSatisfy { abs($0.0 - Double(($0.1 + 1) * 73 - 1) / 130) < 1e-9 })
        let frame = DemoTimeline.ecgFrame(3, of: SimulatedECG(scenario: RecordedECG.scenario, seed: 1))
        #expect(frame.measurementType == .ecg && frame.samples.count == 73)
        #expect(frame.timestamp == 599_616_000_000_000_000 + UInt64((Double(4 * 73 - 1) / 130 * 1e9).rounded()))
        #expect(!DemoTimeline(scenario: RecordedECG.scenario, seed: 1).steps.contains { if case .ecg = $0.action { true } else { false } })
    }

    /// Every sample sent is in the file once, in order, within a microsecond of when it was taken
    /// (outside the link's gap, where none was sent); the lines hold two seconds each.
    @Test func aDemoSessionRecordsItsECG() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-demo-ecg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = try RecordedECG.record(in: directory)
        let file = try SessionFileReader.read(Array(recorded.text.utf8), source: recorded.path)
        let samples = file.ecg.flatMap { run in zip(run.times, run.microvolts) }
        #expect(samples.count == recorded.sent.count && samples.count > 100 * 130)
        #expect(samples.map(\.1) == recorded.sent.map(\.microvolts))
        #expect(zip(samples, recorded.sent).allSatisfy { abs($0.0 - $1.time) < 2e-6 })
        #expect(file.ecg.dropLast().allSatisfy { $0.microvolts.count >= 260 || $0.time(ofSample: $0.microvolts.count) < RecordedECG.start + 61 })
        #expect(file.ecg.contains { abs($0.start - RecordedECG.start - 70) < 0.6 }, "a line starts where the ECG came back")
        #expect(!file.motion.isEmpty && file.beats.count > 100)
    }
}
