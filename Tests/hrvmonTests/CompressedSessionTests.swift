import Foundation
import TestSupport
import Testing

/// Closed sessions kept as `ID.jsonl.gz`: every command that takes a session reads them; a crash
/// while compressing (both files left) lists the whole `.jsonl` once and `delete` removes both;
/// damaged gzip data is bad input said clearly (exit 2), never a crash; `sessions --compact`
/// rewrites a version 1 file.
@Suite struct CompressedSessionTests {
    /// `text` compressed by gzip itself into `path`.
    static func gzip(_ text: String, to path: String) throws {
        try TestChild.run("/bin/gzip", ["-c"], input: Data(text.utf8)).output.write(to: URL(fileURLWithPath: path))
    }

    static let session = SessionInputTests.validSession

    /// A session gzipped by gzip itself: listed, analysed, reported, exported, checked for
    /// notes, as its plain file is.
    @Test func everyCommandReadsACompressedSession() throws {
        let environment = try SessionInputTests.sessionsDirectory([:])
        let sessions = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/"
        try Self.gzip(Self.session, to: sessions + "20261121-101500.jsonl.gz")
        let listed = try Hrvmon.run(["sessions", "--format", "json"], environment: environment)
        #expect(listed.status == 0 && listed.stdout.contains("\"id\":\"20261121-101500\""), "\(listed.stdout)\(listed.stderr)")
        let analyzed = try Hrvmon.run(["analyze", "--format", "json", "20261121-101500"], environment: environment)
        #expect(analyzed.status == 0 && analyzed.json?["raw_beats"] as? Int == 5, "\(analyzed.stderr)")
        let byPath = try Hrvmon.run(["analyze", "--format", "json", sessions + "20261121-101500.jsonl.gz"], environment: environment)
        #expect(byPath.stdout == analyzed.stdout)
        let exported = try Hrvmon.run(["export", "--session", "20261121", "--format", "jsonl"], environment: environment)
        #expect(exported.status == 0 && exported.stdout == Self.session, "\(exported.stderr)")
        let report = try Hrvmon.run(["report", "20261121", "-o", "-"], environment: environment)
        #expect(report.status == 0 && report.stdout.contains("<html"), "\(report.stderr)")
    }

    /// Both forms (a crash between the rename and the unlink): listed once, the `.jsonl`; delete removes both.
    @Test func bothFormsAreOneSession() throws {
        let environment = try SessionInputTests.sessionsDirectory(["20261121-101500.jsonl": Self.session])
        let sessions = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/"
        try Self.gzip(Self.session, to: sessions + "20261121-101500.jsonl.gz")
        let listed = try Hrvmon.run(["sessions", "--format", "csv"], environment: environment)
        #expect(listed.stdout.split(separator: "\n").count == 2, "\(listed.stdout)")
        let analyzed = try Hrvmon.run(["analyze", "--format", "json", "20261121-101500"], environment: environment)
        #expect(analyzed.json?["source"] as? String == sessions + "20261121-101500.jsonl", "\(analyzed.stdout)")
        let deleted = try Hrvmon.run(["delete", "20261121-101500", "--yes"], environment: environment)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sessions).isEmpty)
    }

    @Test(arguments: ["damaged", "cut short", "not gzip"])
    func damagedGzipIsBadInput(_ damage: String) throws {
        let environment = try SessionInputTests.sessionsDirectory([:])
        let path = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/20261121-101500.jsonl.gz"
        try Self.gzip(Self.session, to: path)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "damaged": for index in 12..<bytes.count - 8 { bytes[index] ^= 0xA5 }
        case "cut short": bytes = Array(bytes.prefix(bytes.count - 12))
        default: bytes = [0x1F, 0x8B] + Array("{}\n".utf8)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        for command in [["analyze", path], ["report", path, "-o", "-"], ["export", "--session", "20261121"]] {
            let result = try Hrvmon.run(command, environment: environment)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(path + ": cannot decompress:"), "\(command): \(result.stderr)")
        }
        let listed = try Hrvmon.run(["sessions"], environment: environment)
        #expect(listed.status == 0 && listed.stderr.contains(path), "\(listed.stderr)")
    }

    /// `sessions --compact`: a version 1 session recorded by the live pipeline (packets of one to
    /// three beats, contact lost, malformed notifications, a gap, an exercise) becomes
    /// `ID.jsonl.gz` in version 2 and `analyze` gives the same JSON, byte for byte.
    @Test func compactKeepsTheAnalysis() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-compact-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let recorded = try RecordedVersions.record(in: scratch)
        let id = "20270115-080000"
        let environment = try SessionInputTests.sessionsDirectory([id + ".jsonl": recorded.version1])
        let sessions = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/"
        let before = try Hrvmon.run(["analyze", "--format", "json", id], environment: environment)
        #expect(before.status == 0, "\(before.stderr)")
        let compacted = try Hrvmon.run(["sessions", "--compact"], environment: environment)
        #expect(compacted.status == 0 && compacted.stdout.contains("compacted 1 session"), "\(compacted.stdout)\(compacted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sessions) == [id + ".jsonl.gz"])
        let after = try Hrvmon.run(["analyze", "--format", "json", id], environment: environment)
        #expect(after.stdout.replacingOccurrences(of: ".jsonl.gz", with: ".jsonl") == before.stdout)
        #expect(try SessionFileContent.text(sessions + id + ".jsonl.gz").contains(#""version":2,"#))
        // Again: nothing left to do.
        let again = try Hrvmon.run(["sessions", "--compact"], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("compacted 0 sessions"), "\(again.stdout)")
    }

    /// A file whose corrected beats are not the pipeline's (written by hand, as the fixture is) is
    /// not the same session once rewritten: it is left as it was, and the command fails.
    @Test func aRewriteThatDiffersKeepsTheOldFile() throws {
        let fixture = SessionFixture(start: 1_795_000_000)
        let environment = try SessionInputTests.sessionsDirectory([fixture.id + ".jsonl": fixture.text])
        let sessions = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/"
        let compacted = try Hrvmon.run(["sessions", "--compact"], environment: environment)
        #expect(compacted.status == 1 && compacted.stderr.contains("its version 2 rewrite differs (corrected beat 51)"), "\(compacted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sessions) == [fixture.id + ".jsonl"])
        #expect(try String(contentsOfFile: sessions + fixture.id + ".jsonl", encoding: .utf8) == fixture.text)
    }
}
