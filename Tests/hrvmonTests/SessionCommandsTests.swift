import Foundation
import TestSupport
import Testing

/// `note`, `sessions`, `history`, `export` and `delete` on a real session recorded by `monitor`.
@Suite(.serialized) struct SessionCommandsTests {
    /// Runs hrvmon in `home` (the monitor's data, config and runtime directories) to its end.
    static func run(_ arguments: [String], in home: String) throws -> (status: Int32?, stdout: String, stderr: String) {
        let process = try LiveProcess(arguments, environment: [:], home: home)
        let status = process.waitForExit(timeout: 30)
        return (status, process.allLines.joined(separator: "\n"), process.stderr)
    }

    @Test func noteSessionsExportHistoryDelete() throws {
        let ticks = try SessionFileTests.simulatedTicks()
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send(Packet.packed(ticks[..<100]), to: fake, expecting: 100, in: monitor)
        let noted = try Self.run(["note", "felt", "tense <b>"], in: monitor.home)
        #expect(noted.status == 0 && noted.stdout == "noted", "\(noted)")
        #expect(monitor.next { $0["type"] as? String == "note" }?["text"] as? String == "felt tense <b>")
        try MonitorCommandTests.send(Packet.packed(ticks[100...]), to: fake, expecting: ticks.count, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let summary = try #require(monitor.objects.last)
        let home = monitor.home

        let nobody = try Self.run(["note", "too late"], in: home)
        #expect(nobody.status == 1 && nobody.stderr.contains("no session is running"), "\(nobody)")

        // sessions: the summary's numbers and the note.
        let listed = try Self.run(["sessions", "--format", "json"], in: home)
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        let session = try #require(sessions.first)
        #expect(sessions.count == 1)
        let id = try #require(session["id"] as? String)
        #expect(session["beats"] as? Int == ticks.count)
        #expect(session["rmssd_ms"] as? Double == summary["rmssd_ms"] as? Double)
        #expect(session["stress_s"] as? Double == summary["stress_s"] as? Double && (summary["stress_s"] as? Double ?? 0) > 60)
        #expect((session["notes"] as? [[String: Any]])?.first?["text"] as? String == "felt tense <b>")
        #expect(session["device"] as? String == "Polar H10 A1B2C3D4" && session["ended"] as? Bool == true)
        let table = try Self.run(["sessions"], in: home)
        #expect(table.stdout.contains(id) && table.stdout.contains("note: felt tense <b>"), "\(table.stdout)")

        // export rr: the strap's intervals in exact ms, which analyze reads back to the session's numbers.
        let rr = try Self.run(["export", "--session", id, "--format", "rr"], in: home)
        let values = rr.stdout.split(separator: "\n").map(String.init)
        #expect(values.count == ticks.count)
        #expect(values.first == exactMilliseconds(ticks[0]) && values.last == exactMilliseconds(ticks[ticks.count - 1]))
        let exported = home + "/export.rr.txt"
        #expect(try Self.run(["export", "--session", String(id.prefix(11)), "--format", "rr", "-o", exported], in: home).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: exported)[.posixPermissions] as? Int == 0o600)
        let reanalysed = try Self.run(["analyze", "--format", "json", exported], in: home)
        let metrics = try #require(LiveProcess.parse(reanalysed.stdout))
        #expect(metrics["rmssd_ms"] as? Double == summary["rmssd_ms"] as? Double)

        let csv = try Self.run(["export", "--session", id, "--format", "csv"], in: home)
        #expect(csv.stdout.hasPrefix("t,seq,rr_1024,rr_ms,hr_bpm,contact\n") && csv.stdout.split(separator: "\n").count == ticks.count + 1)
        let corrected = try Self.run(["export", "--session", id, "--format", "csv", "--corrected"], in: home)
        #expect(corrected.stdout.hasPrefix("session_s,nn_ms,class\n") && corrected.stdout.contains(",ectopic"))
        let directory = home + "/exports"
        #expect(try Self.run(["export", "--all", "--format", "jsonl", "-o", directory], in: home).status == 0)
        // The session, closed, is kept compressed; exported, it is its lines again.
        let stored = SessionFileTests.sessionFiles(monitor)[0]
        #expect(stored.hasSuffix("/\(id).jsonl.gz"))
        let original = try SessionFileContent.data(stored)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/\(id).jsonl")) == original)

        // history: today has the session's resting values and its stress minutes.
        let history = try Self.run(["history", "--days", "3", "--format", "json"], in: home)
        let days = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        #expect(days.count == 3)
        #expect(days.last?["ln_rmssd"] as? Double != nil && days.last?["sessions"] as? Int == 1)
        #expect(abs((days.last?["stress_min"] as? Double ?? 0) - (summary["stress_s"] as? Double ?? 0) / 60) < 1e-9)

        // delete: refused without a terminal or --yes; then the file and its baseline entry go.
        let refused = try Self.run(["delete", "--session", id], in: home)
        #expect(refused.status == 2 && refused.stderr.contains("without --yes"))
        #expect(SessionFileTests.sessionFiles(monitor).count == 1)
        let deleted = try Self.run(["delete", "--session", id, "--baseline", "--yes"], in: home)
        #expect(deleted.status == 0 && deleted.stdout == "deleted 1 session and 1 resting measurement from the baseline", "\(deleted)")
        #expect(SessionFileTests.sessionFiles(monitor).isEmpty)
        #expect(try !String(contentsOfFile: home + "/data/hrvmon/baseline.json", encoding: .utf8).contains(id))
        #expect(try Self.run(["sessions"], in: home).stdout.hasPrefix("no sessions yet"))
        let missing = try Self.run(["export", "--session", id], in: home)
        #expect(missing.status == 2 && missing.stderr.contains("\(id): no such file, nor a session of that id in "), "\(missing.stderr)")
    }

    func exactMilliseconds(_ ticks: Int) -> String {
        let value = Double(ticks) * 1000 / 1024
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
