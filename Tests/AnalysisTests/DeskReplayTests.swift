import Analysis
import Foundation
import HRV
import SessionLog
import TestSupport
import Testing

/// A session's `desk` lines are replay steps: a replay (`report`, `stress-tune`, `sessions`)
/// judges the beats with the same evidence of sitting as the live session did.
@Suite struct DeskReplayTests {
    static func replayedEpisodes(_ text: String) throws -> [StressEpisode] {
        let file = try SessionFileReader.read(Array(text.utf8), source: "desk.jsonl")
        let settings = try SessionReplay.settings(of: file, source: "desk.jsonl")
        return try SessionReplay.replay(file, settings: settings, baseline: nil).judge.episodes
    }

    static func kinds(_ episodes: [StressEpisode]) -> [String] {
        episodes.map { "\($0.kind.rawValue) \(Int($0.start))–\(Int($0.end))" }
    }

    @Test func aReplayJudgesWithTheDeskAsTheLiveSessionDid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-desk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = try RecordedDesk.record(deskFrom: 10, in: directory)
        #expect(recorded.text.contains(#""type":"desk""#))
        #expect(!recorded.episodes.contains { $0.kind == .activity }, "\(Self.kinds(recorded.episodes))")
        #expect(Self.kinds(try Self.replayedEpisodes(recorded.text)) == Self.kinds(recorded.episodes))

        // Without its desk line the same beats are judged from heart rate alone: activity.
        let withoutDesk = recorded.text.split(separator: "\n").filter { !$0.contains(#""type":"desk""#) }.joined(separator: "\n") + "\n"
        #expect(try Self.replayedEpisodes(withoutDesk).contains { $0.kind == .activity })
    }
}
