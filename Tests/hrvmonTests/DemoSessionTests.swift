import Foundation
import LiveSession
import TestSupport
import Testing

/// `hrvmon demo` as a session: notes reach it, `--log` keeps its file, and without `--log` it
/// leaves nothing in the user's data directory.
@Suite struct DemoSessionTests {
    static func runtimeDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-run-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `hrvmon note` reaches the demo through its socket; the note is an event like any other.
    @Test func notesReachTheDemo() throws {
        let runtime = try Self.runtimeDirectory()
        let demo = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "40", "--duration", "300"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(demo.next { $0["type"] as? String == "metrics" } != nil, "\(demo.stderr)")
        #expect(NoteInbox.send(Array("coffee, then the meeting".utf8), to: runtime + "/hrvmon/notes.sock") == nil)
        let note = demo.next { $0["type"] as? String == "note" }
        #expect(note?["text"] as? String == "coffee, then the meeting")
        demo.signal(SIGINT)
        #expect(demo.waitForExit() == 0)
        #expect(demo.objects.last?["type"] as? String == "summary")
    }

    @Test func sessionFileOnlyWhenAsked() throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let logged = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "1000", "--duration", "200", "--log", log],
            environment: ["XDG_RUNTIME_DIR": try Self.runtimeDirectory()])
        #expect(logged.waitForExit(timeout: 30) == 0, "\(logged.stderr)")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { LiveProcess.parse(String($0)) }
        #expect(lines.first?["type"] as? String == "session")
        #expect(lines.first?["source"] as? String == "demo")
        #expect((lines.first?["device"] as? [String: Any])?["name"] as? String == "hrvmon demo strap")
        #expect(lines.last?["type"] as? String == "summary")
        #expect(SessionFileTests.beats(lines).count == logged.beats.count)
        #expect(!log.hasSuffix(".gz") && FileManager.default.fileExists(atPath: log), "a file named with --log stays as written")
        #expect(!FileManager.default.fileExists(atPath: logged.home + "/data/hrvmon"), "nothing in the user's data directory")

        let unlogged = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "1000", "--duration", "200"], environment: ["XDG_RUNTIME_DIR": try Self.runtimeDirectory()])
        #expect(unlogged.waitForExit(timeout: 30) == 0, "\(unlogged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: unlogged.home + "/data/hrvmon"), "no session file, no baseline history")
    }
}
