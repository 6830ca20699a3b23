@testable import Analysis
import Foundation
import SessionLog
import TestSupport
import Testing

/// Session file format version 2: what the recorder writes, that it reads as the same session as
/// version 1 (every beat, the corrected timeline, every event, and a replay's every event), and
/// that `sessions --compact`'s rewrite of a version 1 file does too.
@Suite struct SessionFormatTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-format-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func types(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let type = line.dropFirst(9).prefix { $0 != "\"" }
            counts[String(type), default: 0] += 1
        }
        return counts
    }

    static func read(_ text: String) throws -> SessionFile {
        try SessionFileReader.read(Array(text.utf8), source: "test")
    }

    /// One packet line per notification with beats, no rr or nn lines, metrics every 10 s of
    /// session time, and the same session read back as its version 1 file holds.
    @Test func theRecorderWritesVersion2() throws {
        let recorded = try RecordedVersions.record(in: try Self.directory())
        let v1 = try Self.read(recorded.version1)
        let v2 = try Self.read(recorded.version2)
        #expect(v1.header.version == 1 && v2.header.version == 2)
        let types = Self.types(recorded.version2)
        #expect(types["rr"] == nil && types["nn"] == nil)
        let packets = v1.steps.filter { if case .packet = $0 { true } else { false } }.count
        #expect(types["packet"] == packets)
        #expect(Set(v1.beats.map(\.contact)) == ["detected", "not_detected", "unsupported"])
        let seconds = try #require(v2.metrics.last?.sessionSeconds)
        #expect(v2.metrics.count == Int(seconds / 10) + 1, "one metrics line each 10 s")
        #expect(Set(v2.metrics.map { ($0.sessionSeconds / 10).rounded(.down) }).count == v2.metrics.count)
        #expect(v1.metrics.count > 5 * v2.metrics.count)
        #expect(recorded.version2.utf8.count * 4 < recorded.version1.utf8.count)
        #expect(try SessionComparison.difference(v1, v2, source: "test") == nil)
        // Contact and energy appear only when they say something.
        let lines = recorded.version2.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(#"{"type":"packet","#) && $0.contains(#""contact":"not_detected""#) })
        #expect(lines.contains { $0.hasPrefix(#"{"type":"packet","#) && $0.contains(#""energy_kj":"#) })
        #expect(lines.contains { $0.hasPrefix(#"{"type":"packet","#) && $0.hasSuffix("]}") && !$0.contains("contact") })
    }

    /// With a chest accelerometer: its seconds go twenty to a `motion_seconds` line, and a replay of
    /// the file gives every metrics line the live session printed, byte for byte — the detector
    /// was given the same seconds, at the same times, between the same notifications.
    @Test func aReplayGivesTheDetectorTheMotionTheLiveSessionGaveIt() throws {
        let recorded = try RecordedVersions.record(moving: true, in: try Self.directory())
        let live = recorded.version1.split(separator: "\n").map(String.init)
        let liveMetrics = live.filter { $0.hasPrefix(#"{"type":"metrics","#) }
        let seconds = live.filter { $0.hasPrefix(#"{"type":"motion","#) }.count
        #expect(liveMetrics.contains { $0.contains(#""state":"activity""#) && $0.contains(#""motion":"walking""#) })
        let types = Self.types(recorded.version2)
        #expect(types["motion"] == nil)
        #expect((seconds / 20...seconds / 20 + 2).contains(types["motion_seconds"] ?? 0), "\(seconds) seconds in \(types["motion_seconds"] ?? 0) lines")
        let v2 = try Self.read(recorded.version2)
        #expect(v2.motion.count == seconds)
        var replayed: [String] = []
        _ = try SessionReplay.replay(v2, settings: try SessionReplay.settings(of: v2, source: "test"), baseline: v2.header.baseline) { event in
            if let line = SessionRecords.object(for: .live(event), at: 0)?.serialized, line.hasPrefix(#"{"type":"metrics","#) { replayed.append(line) }
        }
        #expect(replayed.count == liveMetrics.count)
        let differing = zip(liveMetrics, replayed).first { $0 != $1 }
        #expect(differing == nil, "live \(differing?.0 ?? "")\nreplay \(differing?.1 ?? "")")
        #expect(try SessionComparison.difference(try Self.read(recorded.version1), v2, source: "test") == nil)
    }

    /// `sessions --compact`: the version 1 file becomes `ID.jsonl.gz` (version 2, the same
    /// session), and only then is the old file removed.
    @Test func compactionKeepsTheSession() throws {
        let directory = try Self.directory()
        let recorded = try RecordedVersions.record(in: directory)
        let path = directory + "/20270115-080000.jsonl"
        try recorded.version1.write(toFile: path, atomically: false, encoding: .utf8)
        guard case .compacted(let before, let after) = try SessionCompaction.compact(path) else {
            Issue.record("not compacted")
            return
        }
        #expect(before == recorded.version1.utf8.count && after > 0 && after * 20 < before)
        #expect(!FileManager.default.fileExists(atPath: path))
        let compacted = try SessionFileReader.read(path: path + ".gz")
        #expect(compacted.header.version == 2)
        #expect(try SessionComparison.difference(try Self.read(recorded.version1), compacted, source: path) == nil)
        // Already compact: left alone.
        #expect(try SessionCompaction.compact(path + ".gz") == .skipped("already compressed"))
    }

    /// A session that has not ended (it may be recording) is not compacted.
    @Test func aSessionWithoutItsSummaryIsLeftAlone() throws {
        let directory = try Self.directory()
        let recorded = try RecordedVersions.record(minutes: 1, in: directory)
        let path = directory + "/20270115-080000.jsonl"
        let unfinished = recorded.version1.split(separator: "\n").dropLast().joined(separator: "\n") + "\n"
        try unfinished.write(toFile: path, atomically: false, encoding: .utf8)
        guard case .skipped = try SessionCompaction.compact(path) else {
            Issue.record("compacted a session that had not ended")
            return
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == unfinished)
        #expect(!FileManager.default.fileExists(atPath: path + ".gz"))
    }
}
