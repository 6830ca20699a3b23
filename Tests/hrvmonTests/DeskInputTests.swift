import Foundation
import TestSupport
import Testing

/// Input at the desk, end to end: the real binary against fake desktop sources on private buses
/// (Mutter's IdleMonitor and the freedesktop ScreenSaver on a session bus, logind on the system
/// bus), with the services' own names, paths and signatures. `doctor` says which source answers
/// (the fallback order); `monitor` reports presence as `desk` lines when it changes, keeps going
/// when a source stops answering, and says nothing where none answers.
@Suite(.serialized) struct DeskInputTests {
    static func doctorSays(_ environment: [String: String], settings: String = "") throws -> String {
        let process = try LiveProcess(["doctor", "--format", "json"], environment: environment, settings: settings)
        _ = process.waitForExit(timeout: 30)
        let report = try #require(LiveProcess.parse(process.allLines.joined()), "\(process.stderr)")
        let desk = (report["checks"] as? [[String: Any]] ?? []).first { $0["check"] as? String == "desk" }
        #expect(desk?["status"] as? String == "ok", "\(desk ?? [:])")
        return desk?["explanation"] as? String ?? ""
    }

    /// Mutter first; then the ScreenSaver; then logind; a source that errors (GNOME Shell's
    /// ScreenSaver) or never answers (within doctor's 3 s) is passed over.
    @Test(arguments: [
        ("5000" as String?, nil as String?, nil as Double?, "mutter answers"),
        ("5000", "7", 3, "mutter answers"),
        (nil, "7", 3, "screensaver answers"),
        ("silent", "7", nil, "screensaver answers"),
        (nil, "error", 3, "logind's idle hint answers"),
    ])
    func doctorSaysWhichSourceAnswers(mutter: String?, screenSaver: String?, logind: Double?, expected: String) throws {
        let desk = try FakeDesk(mutter: mutter, screenSaver: screenSaver, logindIdleSeconds: logind)
        defer { desk.stop() }
        let said = try Self.doctorSays(desk.environment)
        #expect(said.hasPrefix(expected), "\(said)\n\(desk.serverLog)")
    }

    @Test func doctorSaysWhenNoneAnswersOrItIsOff() throws {
        let desk = try FakeDesk()
        defer { desk.stop() }
        #expect(try Self.doctorSays(desk.environment).hasPrefix("no desktop source of idle time answered"))
        let served = try FakeDesk(mutter: "5000")
        defer { served.stop() }
        #expect(try Self.doctorSays(served.environment, settings: "desk.input = false\n").hasPrefix("desk.input is off"))
    }

    static func monitor(_ fake: FakeBluetooth, desk: FakeDesk?, _ extra: [String] = []) throws -> LiveProcess {
        // Without a desk: no session bus at all (none advertised, none in $XDG_RUNTIME_DIR).
        let environment = fake.environment.merging(desk.map { ["DBUS_SESSION_BUS_ADDRESS": $0.environment["DBUS_SESSION_BUS_ADDRESS"]!] } ?? ["DBUS_SESSION_BUS_ADDRESS": ""]) { $1 }
        return try LiveProcess(["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl"] + extra, environment: environment)
    }

    /// What monitor said on stderr besides where the session was kept.
    static func said(_ monitor: LiveProcess) -> [Substring] {
        monitor.stderr.split(separator: "\n").filter { !$0.hasPrefix("saved as session ") }
    }

    static func deskLines(_ monitor: LiveProcess) -> [[String: Any]] {
        monitor.objects.filter { $0["type"] as? String == "desk" }
    }

    /// Typing (Mutter: 4 s idle) is `at_desk`; after a long pause (2 min) `away`: one line per
    /// change, none for a reading that changes nothing.
    @Test func monitorReportsPresenceWhenItChanges() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let desk = try FakeDesk(mutter: "4000", logindIdleSeconds: 3, systemBus: fake.address)
        defer { desk.stop() }
        let monitor = try Self.monitor(fake, desk: desk)
        let first = monitor.next(timeout: 15) { $0["type"] as? String == "desk" }
        #expect(first?["state"] as? String == "at_desk" && first?["source"] as? String == "mutter", "\(first ?? [:])\n\(monitor.stderr)")
        try desk.set("mutter", idle: "120000")
        let second = monitor.next(timeout: 30) { $0["type"] as? String == "desk" }
        #expect(second?["state"] as? String == "away", "\(second ?? [:])")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 15) == 0, "\(monitor.stderr)")
        #expect(Self.deskLines(monitor).count == 2, "\(Self.deskLines(monitor))")
        #expect(Self.said(monitor).isEmpty, "\(monitor.stderr)")
    }

    /// Mutter answers, then stops answering: beats keep flowing while the reading waits for its
    /// timeout, and presence becomes `unknown`.
    @Test func aSourceThatStopsAnsweringStallsNothing() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let desk = try FakeDesk(mutter: "2000", systemBus: fake.address)
        defer { desk.stop() }
        let monitor = try Self.monitor(fake, desk: desk)
        #expect(monitor.next(timeout: 15) { $0["type"] as? String == "desk" }?["state"] as? String == "at_desk", "\(monitor.stderr)")
        try desk.set("mutter", idle: "silent")
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        var sent = 0
        let deadline = Date().addingTimeInterval(60)
        while Self.deskLines(monitor).count < 2, Date() < deadline {
            #expect(try fake.notify(Packet.measurement(rr: [1000])) == 1)
            sent += 1
            #expect(monitor.waitForBeats(sent), "beat \(sent) while Mutter is silent")
            Thread.sleep(forTimeInterval: 0.5)
        }
        #expect(Self.deskLines(monitor).last?["state"] as? String == "unknown", "\(Self.deskLines(monitor))")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 15) == 0, "\(monitor.stderr)")
    }

    /// No session bus, no logind: no `desk` line and not a word about it. `--no-desk` with a
    /// desk that answers: the same.
    @Test(arguments: [false, true])
    func withoutASourceMonitorIsSilent(deskServed: Bool) throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let desk = deskServed ? try FakeDesk(mutter: "1000", systemBus: fake.address) : nil
        defer { desk?.stop() }
        let monitor = try Self.monitor(fake, desk: desk, deskServed ? ["--no-desk"] : [])
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send([Packet.measurement(rr: [900]), Packet.measurement(rr: [910])], to: fake, expecting: 2, in: monitor)
        // Past a first reading and a poll, were there any.
        Thread.sleep(forTimeInterval: 12)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 15) == 0, "\(monitor.stderr)")
        #expect(Self.deskLines(monitor).isEmpty, "\(Self.deskLines(monitor))")
        #expect(Self.said(monitor).isEmpty, "\(monitor.stderr)")
        #expect(!monitor.allLines.contains { $0.contains("\"notice\"") }, "\(monitor.allLines.filter { $0.contains("notice") })")
        #expect(desk?.calls(1, timeout: 0.5).isEmpty ?? true, "--no-desk asks nothing")
    }
}
