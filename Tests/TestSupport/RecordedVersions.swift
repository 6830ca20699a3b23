import Foundation
import HRV
import LivePipeline
import LiveSession
import SessionLog
import Settings
import Simulation

/// One session recorded both ways through a real `SessionRun`: as version 1 wrote it (every
/// event's `--format jsonl` line: `rr`, `nn` and `metrics` at every notification) and as the
/// recorder writes it now (version 2). The session has a bit of every step the file keeps:
/// packets of one to three beats, some with energy, contact lost for a while, malformed
/// notifications, a link loss (gap) and a breathing exercise; `moving`: and a chest accelerometer
/// too, walking through the middle part, its seconds coming as a strap's do (not on the second,
/// two in one frame now and then).
public struct RecordedVersions {
    public static let start = 1_800_000_000.0
    public var version1: String
    public var version2: String

    /// `minutes` of simulated rest, stress and rest (seed 5), recorded into `directory`.
    public static func record(minutes: Int = 5, moving: Bool = false, in directory: String) throws -> RecordedVersions {
        let settings = Settings()
        let path = directory + "/v2.jsonl"
        let header = SessionHeader(
            id: "20270115-080000", start: start, startLocal: "2027-01-15T08:00:00+00:00", source: "live", deviceName: "Polar H10 1",
            deviceAddress: "A0:9E:1A:00:00:01", baseline: nil, settings: settings, program: "hrvmon test")
        let lines = EveryLine()
        let run = try SessionRun.recording(to: path, header: header, outputs: [lines])
        let scenario = try Scenario(parsing: "rest:\(minutes)m,stress:\(minutes)m,rest:\(minutes)m,ectopic=2/min")
        let ticks = Simulator(scenario: scenario, seed: 5).run().beats.map { Int($0.rrTicks) }
        let accelerometer = SimulatedAccelerometer(
            scenario: try Scenario(parsing: "rest:\(minutes)m,activity:\(minutes)m:move=walking,rest:\(minutes)m"), seed: 5)
        var motionSecond = moving ? 0 : accelerometer.seconds
        func motionTime(_ second: Int) -> Double {
            start + 1.3337 + Double(second) + Double(second % 5) * 0.0991 - (second % 7 == 6 ? 0.25 : 0)
        }
        var time = start + 1
        var index = 0
        var packet = 0
        while index < ticks.count {
            let count = min(1 + packet % 3, ticks.count - index)
            let rr = Array(ticks[index..<index + count])
            time += Double(rr.reduce(0, +)) / 1024
            while motionSecond < accelerometer.seconds, motionTime(motionSecond) < time {
                // Every seventh second comes in the frame that ends the second before it.
                let arrival = motionTime(motionSecond + (motionSecond % 7 == 5 ? 1 : 0))
                run.receive(acceleration: accelerometer.samples(second: motionSecond), sampleRate: accelerometer.sampleRate, at: arrival)
                motionSecond += 1
            }
            let contact: Bool? = (200..<230).contains(packet) ? false : packet % 50 == 7 ? nil : true
            run.receive(Packet.measurement(heartRate: 60 * 1024 / rr[0], contact: contact, energy: packet % 40 == 3 ? packet : nil, rr: rr), at: time)
            switch packet {
            case 100, 101: run.receive([0x10, 60, 0x01], at: time + 0.1) // RR flag, one byte of an RR value: malformed
            case 300: run.breakContinuity(at: time + 0.2)
            case 350, 500: run.toggleExercise(at: time + 0.3)
            default: break
            }
            index += count
            packet += 1
        }
        run.finish(at: time + 1, seconds: time + 1 - start)
        let v1Header = SessionRecords.header(header).serialized.replacingOccurrences(of: #""version":2,"#, with: #""version":1,"#)
        return RecordedVersions(
            version1: v1Header + "\n" + lines.text + SessionRecords.summary(lines.summary!).serialized + "\n",
            version2: try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Every event's line as `--format jsonl` prints it: the body of a version 1 file.
    private final class EveryLine: SessionOutput {
        var text = ""
        var summary: SessionSummary?

        func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
            if let line = line.text() { text += line }
        }

        func finish(_ summary: SessionSummary) {
            self.summary = summary
        }
    }
}
