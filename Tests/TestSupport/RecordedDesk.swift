import Foundation
import HRV
import LivePipeline
import LiveSession
import SessionLog
import Settings
import Simulation

/// A session recorded through a real `SessionRun` and `SessionRecorder` while the desk reported
/// input: a strong stress response at the desk (+28 bpm, RMSSD halved), which heart rate alone
/// takes for exercise. The file, and the episodes the live session found.
public struct RecordedDesk {
    public static let start = 1_800_000_000.0
    public var text: String
    public var episodes: [StressEpisode]

    /// `deskFrom`: seconds into the session when input at the desk is reported (nil: never).
    public static func record(deskFrom: Double?, in directory: String) throws -> RecordedDesk {
        let settings = Settings()
        let path = directory + "/desk.jsonl"
        let header = SessionHeader(
            id: "20270115-090000", start: start, startLocal: "2027-01-15T09:00:00+00:00", source: "live", deviceName: "Polar H10 1",
            deviceAddress: "A0:9E:1A:00:00:01", baseline: nil, settings: settings, program: "hrvmon test")
        let run = try SessionRun.recording(to: path, header: header)
        let ticks = Simulator(scenario: try Scenario(parsing: "rest:5m,stress:4m:hr=90:rmssd=15,rest:6m"), seed: 1).run().beats
            .map { Int($0.rrTicks) }
        var time = start
        var desk = deskFrom
        for rr in ticks {
            time += Double(rr) / 1024
            if let at = desk, time - start >= at {
                run.observeDesk(DeskChange(.atDesk, source: "mutter"), at: time)
                desk = nil
            }
            run.receive(Packet.measurement(heartRate: 60 * 1024 / rr, rr: [rr]), at: time)
        }
        run.finish(at: time + 1, seconds: time + 1 - start)
        return RecordedDesk(text: try String(contentsOfFile: path, encoding: .utf8), episodes: run.session.judge.episodes)
    }
}
