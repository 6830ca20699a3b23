import Foundation
import HRV
import LivePipeline
import LiveSession
import SessionLog
import Settings
import Simulation

/// A `demo --ecg` session recorded through a real `SessionRun` and `SessionRecorder` on a virtual
/// clock: the demo strap's beats, accelerometer and ECG frames, with the link lost for
/// `gap` seconds of session time (no notification or frame, a `gap`), the file as written and
/// the ECG as the strap sent it (each frame's samples at their simulated times).
public struct RecordedECG: Sendable {
    /// A quarter second past the whole second, as a real start is: the ECG's samples do not fall
    /// on the export's grid of whole seconds by chance.
    public static let start = 1_800_000_000.25
    public static let scenario = try! Scenario(parsing: "rest:80s,activity:40s:move=walking")

    public var path: String
    public var text: String
    /// Each frame the session received: its samples' simulated times (Unix seconds) and µV.
    public var sent: [(time: Double, microvolts: Int32)]

    public static func record(in directory: String, gap: Range<Double> = 60..<70, seed: UInt64 = 1) throws -> RecordedECG {
        let settings = Settings()
        let path = directory + "/ecg.jsonl"
        let header = SessionHeader(
            id: "20270115-093000", start: start, startLocal: "2027-01-15T10:30:00+01:00", source: "demo",
            deviceName: DemoPlayback.strapName, deviceAddress: DemoPlayback.strapAddress, baseline: nil, settings: settings, program: "hrvmon test")
        let run = try SessionRun.recording(to: path, header: header)
        var playback = DemoPlayback()
        DemoPlayback.announce(on: run, at: start)
        var sent: [(time: Double, microvolts: Int32)] = []
        var brokeAt: Double?
        for step in DemoTimeline(scenario: scenario, seed: seed, ecg: true).steps {
            let time = start + step.seconds
            if gap.contains(step.seconds) {
                if brokeAt == nil { run.breakContinuity(at: time) }
                brokeAt = time
                continue
            }
            if case .ecg(let frame, let electrocardiogram) = step.action {
                let first = frame * DemoTimeline.ecgFrameSamples
                for (index, value) in electrocardiogram.samples(first..<first + DemoTimeline.ecgFrameSamples).enumerated() {
                    sent.append((start + SimulatedECG.time(ofSample: first + index), value))
                }
            }
            if playback.perform(step.action, on: run, at: time) { run.finish(at: time, seconds: step.seconds) }
        }
        return RecordedECG(path: path, text: try String(contentsOfFile: path, encoding: .utf8), sent: sent)
    }
}
