import Foundation
import TestSupport
import Testing

/// `hrvmon checkin`, `label` and `dass21` end to end: what they ask, where they keep it, what
/// they refuse.
@Suite struct SelfReportCommandTests {
    /// A home of one's own for several runs: its data directory is shared between them.
    static func home() -> (path: String, environment: [String: String]) {
        let home = Hrvmon.freshHome()
        return (home, ["XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/runtime", "XDG_CONFIG_HOME": home + "/config"])
    }

    static func lines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { LiveProcess.parse(String($0)) }
    }

    static func permissions(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func checkInWithoutASessionGoesToTheDiary() throws {
        let (home, environment) = Self.home()
        let run = try Hrvmon.run(["checkin", "--mood", "2", "--doing", " Exam ", "--with", "alone", "--where", "The  Library"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let diary = home + "/data/hrvmon/checkins.jsonl"
        #expect(run.stdout.contains("no session is running: kept in the diary \(diary)"))
        let lines = try Self.lines(diary)
        #expect(lines.count == 1)
        #expect(lines[0]["type"] as? String == "checkin")
        #expect(lines[0]["mood"] as? Int == 2)
        #expect(lines[0]["mood_words"] as? String == "low")
        #expect(lines[0]["doing"] as? String == "exam")
        #expect(lines[0]["with"] as? String == "alone")
        #expect(lines[0]["where"] as? String == "the library")
        #expect((lines[0]["t"] as? Double ?? 0) > 1_700_000_000)
        #expect(try Self.permissions(diary) == 0o600)

        // Asked on the terminal: the earlier answers are offered by number, a new one is normalised.
        let asked = try Hrvmon.run(["checkin"], stdin: "9\ngood\n1\n  With Friends \n\n", environment: environment)
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stdout.contains("How are you feeling? 1 awful, 2 low, 3 okay, 4 good, 5 great"))
        #expect(asked.stdout.contains("a number 1 to 5, or its word"), "9 is asked again")
        #expect(asked.stdout.contains("What are you doing? (earlier: 1 exam)"))
        #expect(asked.stdout.contains("Where are you? (earlier: 1 the library)"))
        let second = try #require(try Self.lines(diary).last)
        #expect(second["mood"] as? Int == 4)
        #expect(second["doing"] as? String == "exam")
        #expect(second["with"] as? String == "with friends")
        #expect(second["where"] == nil, "an empty answer skips the question")
    }

    @Test(arguments: [
        (["checkin", "--mood", "7"], "--mood '7' is not a mood: give 1 to 5 or the word (1 awful, 2 low, 3 okay, 4 good, 5 great)"),
        (["checkin", "--doing", "exam"], "--mood is missing"),
        (["checkin", "--mood", "3", "--where", String(repeating: "x", count: 41)], "--where is longer than 40 characters"),
    ])
    func badCheckInsAreRefused(arguments: [String], message: String) throws {
        let (home, environment) = Self.home()
        let run = try Hrvmon.run(arguments, environment: environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/data/hrvmon/checkins.jsonl"))
    }

    @Test func unfinishedCheckInIsBadInput() throws {
        let run = try Hrvmon.run(["checkin"], stdin: "3\nexam\n", environment: Self.home().environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains("the check-in was not finished (input ended)"), "\(run.stderr)")
    }

    /// While the demo runs, the check-in goes into its session as a `checkin` line, not the diary.
    @Test func checkInReachesTheRunningSession() throws {
        let (home, environment) = Self.home()
        try FileManager.default.createDirectory(atPath: home + "/runtime", withIntermediateDirectories: true)
        let demo = try LiveProcess(["demo", "--format", "jsonl", "--speed", "40", "--duration", "600"], environment: ["XDG_RUNTIME_DIR": home + "/runtime"])
        defer { demo.signal(SIGINT) }
        #expect(demo.next { $0["type"] as? String == "metrics" } != nil, "\(demo.stderr)")
        let run = try Hrvmon.run(["checkin", "--mood", "great", "--doing", "Walk", "--where", "park"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("checked in to the running session: mood 5 (great) · walk · park"))
        let line = try #require(demo.next { $0["type"] as? String == "checkin" })
        #expect(line["mood"] as? Int == 5)
        #expect(line["doing"] as? String == "walk")
        #expect(line["with"] == nil)
        #expect(line["where"] as? String == "park")
        #expect(!FileManager.default.fileExists(atPath: home + "/data/hrvmon/checkins.jsonl"))
    }

    /// A check-in made while `monitor` records from the fake bluetoothd goes into that session's
    /// file, and the session's report shows it among its events.
    @Test func aCheckInDuringMonitorIsInItsSessionsReport() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let (home, environment) = Self.home()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/runtime", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/config/hrvmon", withIntermediateDirectories: true)
        try LiveProcess.fastLink.write(toFile: home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        let monitor = try LiveProcess(["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl"], environment: fake.environment, home: home)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send((0..<10).map { _ in Packet.measurement(rr: [800, 820, 840]) }, to: fake, expecting: 30, in: monitor)
        let checkIn = try Hrvmon.run(["checkin", "--mood", "2", "--doing", "exam", "--where", "library"], environment: environment)
        #expect(checkIn.status == 0 && checkIn.stdout.contains("checked in to the running session"), "\(checkIn.stdout)\(checkIn.stderr)")
        #expect(monitor.next { $0["type"] as? String == "checkin" } != nil, "\(monitor.stderr)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 30) == 0, "\(monitor.stderr)")

        let sessions = try FileManager.default.contentsOfDirectory(atPath: home + "/data/hrvmon/sessions")
        let session = try #require(sessions.first { $0.hasSuffix(".jsonl.gz") }, "\(sessions)")
        let report = try Hrvmon.run(["report", home + "/data/hrvmon/sessions/" + session, "-o", "-"], environment: environment)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("Check-in") && report.stdout.contains("exam") && report.stdout.contains("library"))
        #expect(!FileManager.default.fileExists(atPath: home + "/data/hrvmon/checkins.jsonl"), "not the diary")
    }

    /// The dashboard's `c` in a real terminal: the four questions on the key line, Tab completing
    /// to an earlier answer from the diary, and the check-in in the session's file.
    @Test func dashboardCheckInInATerminal() throws {
        let home = try DemoCommandTests.home()
        let earlier = try Hrvmon.run(
            ["checkin", "--mood", "3", "--doing", "revision"], environment: ["XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run"])
        #expect(earlier.status == 0, "\(earlier.stderr)")
        let log = home + "/demo.jsonl"
        let terminal = try TmuxTerminal(width: 100, height: 30)
        defer { terminal.close() }
        try terminal.type(try DemoCommandTests.command("demo --speed 5 --log \(log)", environment: "NO_COLOR=1", home: home))
        #expect(terminal.wait(timeout: 20) { $0.contains("c check in") }, "\(terminal.screen)")
        try terminal.type("c", enter: false)
        #expect(terminal.wait { $0.contains("check-in: How are you feeling?") }, "\(terminal.screen)")
        try terminal.type("2", enter: false)
        #expect(terminal.wait { $0.contains("check-in: What are you doing?") }, "\(terminal.screen)")
        try terminal.type("re", enter: false)
        try terminal.key("Tab")
        #expect(terminal.wait { $0.contains("What are you doing? revision") }, "\(terminal.screen)")
        try terminal.key("Enter")
        #expect(terminal.wait { $0.contains("check-in: Who are you with?") }, "\(terminal.screen)")
        try terminal.type("Alone", enter: true)
        #expect(terminal.wait { $0.contains("check-in: Where are you?") }, "\(terminal.screen)")
        try terminal.key("Enter")
        #expect(terminal.wait { $0.contains("check-in: mood 2 (low) · revision · alone") }, "the event log shows it: \(terminal.screen)")
        try terminal.type("q", enter: false)
        #expect(terminal.wait(timeout: 20) { $0.contains("EXIT=0") }, "\(terminal.screen)")
        let checkIn = try #require(try Self.lines(log).first { $0["type"] as? String == "checkin" })
        #expect(checkIn["mood"] as? Int == 2)
        #expect(checkIn["doing"] as? String == "revision")
        #expect(checkIn["with"] as? String == "alone")
        #expect(checkIn["where"] == nil)
    }
}

/// `hrvmon remind` against the fake notification server: the check-in reminder is sent; the
/// DASS-21's only when it is due; without a server it says why and exits 1.
@Suite(.serialized) struct RemindCommandTests {
    @Test func remindersReachTheDesktop() throws {
        let fake = try FakeNotifications()
        defer { fake.stop() }
        let (_, home) = SelfReportCommandTests.home()
        let environment = home.merging(fake.environment) { $1 }
        let checkIn = try Hrvmon.run(["remind", "checkin"], environment: environment)
        #expect(checkIn.status == 0, "\(checkIn.stderr)")
        #expect(checkIn.stdout == "reminded: Time to check in\n")
        let dueNow = try Hrvmon.run(["remind", "dass21"], environment: environment)
        #expect(dueNow.status == 0, "none taken yet: due")
        let calls = fake.calls(2, timeout: 10)
        #expect(calls.map { $0["summary"] as? String } == ["Time to check in", "Time for the DASS-21"], "\(calls)")
        #expect((calls.first?["body"] as? String)?.contains("`hrvmon checkin`") == true)

        #expect(try Hrvmon.run(["dass21", "--answers", Array(repeating: "0", count: 21).joined(separator: ",")], environment: environment).status == 0)
        let notDue = try Hrvmon.run(["remind", "dass21", "--every", "21"], environment: environment)
        #expect(notDue.status == 0)
        #expect(notDue.stdout.hasPrefix("not due: the DASS-21 was last taken "))
        #expect(fake.calls(1, timeout: 1.5).isEmpty, "nothing sent when not due")

        let bad = try Hrvmon.run(["remind", "dass21", "--every", "30"], environment: environment)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--every 30: the DASS-21 is taken every 14 to 28 days"))
    }

    @Test func withoutAServerItSaysWhy() throws {
        let fake = try FakeNotifications(server: false)
        defer { fake.stop() }
        let run = try Hrvmon.run(["remind", "checkin"], environment: SelfReportCommandTests.home().environment.merging(fake.environment) { $1 })
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("hrvmon: no reminder sent: the notification service did not take it"), "\(run.stderr)")
    }
}
