import Foundation
import TestSupport
import Testing

/// `hrvmon monitor` end to end: the real binary, a private bus, the fake bluetoothd.
@Suite(.serialized) struct MonitorCommandTests {
    static let polar = FakeBluetooth.polar

    /// Waits until the fake reports a subscriber for `device` (the Polar), via StartNotify or an acquired socket.
    static func waitForSubscriber(
        _ fake: FakeBluetooth, acquired: Bool = false, timeout: Double = 10, device: String = polar
    ) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let sessions = try fake.sessions(device)
            if acquired ? sessions["acquired"] as? Bool == true : (sessions["notify_clients"] as? Int ?? 0) > 0 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    static func monitor(_ fake: FakeBluetooth, _ extra: [String] = [], settings: String = LiveProcess.fastLink) throws -> LiveProcess {
        try LiveProcess(["monitor", "--device", polar, "--format", "jsonl"] + extra, environment: fake.environment, settings: settings)
    }

    /// For the watchdog's tests: a stall is declared after `watchdogSeconds` without notifications.
    /// Long enough that a test's step after a stall (sending the next notification) comes within
    /// the following period on a busy machine.
    static let watchdogSeconds = 4
    static let watchdogLink = LiveProcess.fastLink(watchdog: watchdogSeconds)

    /// How long to wait for what the watchdog says after `periods` of silence: three times that,
    /// as its timers fire late on a busy machine.
    static func afterWatchdog(periods: Int) -> Double { Double(3 * periods * watchdogSeconds) }

    /// Sends packets and waits until the monitor printed `total` beats.
    static func send(_ packets: [[UInt8]], to fake: FakeBluetooth, expecting total: Int, in monitor: LiveProcess) throws {
        for packet in packets { #expect(try fake.notify(packet) == 1) }
        #expect(monitor.waitForBeats(total), "beats so far: \(monitor.beats.count) of \(total)\n\(monitor.stderr)")
    }

    /// The monitor streaming from the Polar: subscribed, and one beat (810) through.
    static func streaming(_ fake: FakeBluetooth, settings: String = LiveProcess.fastLink) throws -> LiveProcess {
        let monitor = try Self.monitor(fake, settings: settings)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [810])], to: fake, expecting: 1, in: monitor)
        return monitor
    }

    @Test func everyBeatOnceInOrderAcrossPacketLayouts() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(monitor.link("connected") != nil, "\(monitor.allLines)\n\(monitor.stderr)")
        #expect(try Self.waitForSubscriber(fake))
        let packets = [
            Packet.measurement(heartRate: 72, rr: [850]),
            Packet.measurement(heartRate: 300, sixteenBit: true, rr: [840, 860]),
            Packet.measurement(heartRate: 71, energy: 1234, rr: [870, 880, 845]),
            Packet.measurement(heartRate: 70, sixteenBit: true, energy: 5, rr: [830]),
            Packet.measurement(heartRate: 70, contact: nil, rr: []),
            Packet.measurement(heartRate: 69, contact: nil, rr: [900, 910]),
        ]
        try Self.send(packets, to: fake, expecting: 9, in: monitor)
        #expect(monitor.beats == [850, 840, 860, 870, 880, 845, 830, 900, 910])

        let lines = monitor.objects
        let beats = lines.filter { $0["type"] as? String == "rr" }
        #expect(beats.map { $0["seq"] as? Int } == Array(1...9))
        #expect(beats[1]["hr_bpm"] as? Int == 300)
        #expect(beats[3]["energy_kj"] as? Int == 1234)
        #expect(beats[7]["contact"] as? String == "unsupported")
        #expect(abs((beats[0]["rr_ms"] as? Double ?? 0) - 850 * 1000 / 1024) < 1e-9)
        // Within a packet, earlier beats are back-dated by the RR after them.
        let t4 = beats[3]["t"] as? Double ?? 0, t5 = beats[4]["t"] as? Double ?? 0, t6 = beats[5]["t"] as? Double ?? 0
        #expect(abs((t6 - t5) - 845.0 / 1024) < 1e-6 && abs((t5 - t4) - 880.0 / 1024) < 1e-6)
        let metrics = lines.filter { $0["type"] as? String == "metrics" }
        // One per packet carrying RR once the corrector's 3-beat look-ahead has released a beat.
        #expect(metrics.map { $0["beats"] as? Int } == [3, 4, 6])
        for key in ["t", "hr_bpm", "rmssd_ms", "sdnn_ms", "state", "level"] { #expect(metrics.last?.keys.contains(key) == true, "\(key)") }

        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0, "\(monitor.stderr)")
        let sessions = try fake.sessions()
        #expect(sessions["notify_clients"] as? Int == 0)
        #expect(sessions["connected"] as? Bool == false, "Ctrl-C disconnects")
        #expect(monitor.objects.last?["type"] as? String == "summary")
        #expect(monitor.objects.last?["beats"] as? Int == 9)
    }

    @Test func malformedPacketsAreCountedNotFatal() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForSubscriber(fake))
        #expect(try fake.notify([0x10, 60, 0x52]) == 1)  // odd RR byte
        #expect(try fake.notify([]) == 1)                 // empty notification
        #expect(try fake.notify([0x01, 60]) == 1)          // 16-bit HR cut short
        try Self.send([Packet.measurement(rr: [800])], to: fake, expecting: 1, in: monitor)
        let errors = monitor.objects.filter { $0["type"] as? String == "error" }
        #expect(errors.map { $0["count"] as? Int } == [1, 2, 3])
        #expect(errors.first?["bytes"] as? String == "103c52")
        monitor.signal(SIGTERM)
        #expect(monitor.waitForExit() == 0)
        #expect(monitor.objects.last?["malformed"] as? Int == 3)
    }

    /// The strap drops the link: hrvmon connects again at once (no back-off: nothing failed);
    /// BlueZ keeps our StartNotify session and re-enables it on reconnect, so beats resume with
    /// no new StartNotify, none lost, none twice.
    @Test func linkLossReconnectsAndResumes() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [800, 810])], to: fake, expecting: 2, in: monitor)
        try fake.drop()
        #expect(monitor.link("disconnected") != nil)
        let next = monitor.next { $0["type"] as? String == "link" }
        #expect(next?["state"] as? String == "connecting" && next?["retry_in_s"] == nil, "\(next ?? [:])")
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.allLines.suffix(5))\n\(fake.fakeLog.suffix(2000))")
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [820]), Packet.measurement(rr: [830, 840])], to: fake, expecting: 5, in: monitor)
        #expect(monitor.beats == [800, 810, 820, 830, 840])
        let sessions = try fake.sessions()
        #expect(sessions["connect_calls"] as? Int == 2, "\(sessions)\n\(monitor.allLines.filter { !$0.contains("\"rr\"") })")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// With --acquire: beats come through the socket; after link loss (POLLHUP) it is acquired again.
    @Test func acquiredSocketIsAcquiredAgainAfterLinkLoss() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake, ["--acquire"])
        #expect(try Self.waitForSubscriber(fake, acquired: true), "\(monitor.allLines)\n\(monitor.stderr)")
        try Self.send([Packet.measurement(rr: [700, 710, 720])], to: fake, expecting: 3, in: monitor)
        try fake.drop()
        #expect(monitor.link("disconnected") != nil)
        #expect(monitor.link("connected", timeout: 15) != nil)
        #expect(try Self.waitForSubscriber(fake, acquired: true))
        try Self.send([Packet.measurement(rr: [730]), []], to: fake, expecting: 4, in: monitor)
        #expect(monitor.beats == [700, 710, 720, 730])
        let sessions = try fake.sessions()
        #expect(sessions["acquire_calls"] as? Int == 2, "\(sessions)\n\(monitor.allLines.filter { !$0.contains("\"rr\"") })")
        #expect(sessions["start_notify_calls"] as? Int == 0)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        #expect(try fake.sessions()["acquired"] as? Bool == false)
    }

    @Test(arguments: [("org.bluez.Error.NotPermitted", "Notify acquired"), ("org.bluez.Error.InProgress", "In Progress")])
    func refusedAcquireFallsBackToStartNotify(error: String, message: String) throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        try fake.fail("AcquireNotify", with: error, message: message)
        let monitor = try Self.monitor(fake, ["--acquire"])
        #expect(monitor.next { ($0["message"] as? String)?.contains("AcquireNotify refused (\(error): \(message)); using StartNotify instead") == true } != nil)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [750])], to: fake, expecting: 1, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// Refused calls are retried with back-off and said out loud.
    @Test(arguments: [
        ("Connect", "org.bluez.Error.Failed"),
        ("StartNotify", "org.bluez.Error.Failed"),
        ("StartNotify", "org.bluez.Error.NotPermitted"),
        ("StartNotify", "org.bluez.Error.NotConnected"),
    ])
    func refusedCallsAreRetried(method: String, error: String) throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        try fake.fail(method, with: error)
        let monitor = try Self.monitor(fake)
        if error != "org.bluez.Error.NotConnected" {
            #expect(monitor.next { ($0["detail"] as? String)?.contains("\(method == "Connect" ? "connecting" : method)") == true && ($0["detail"] as? String)?.contains(error) == true } != nil, "\(monitor.allLines)")
        }
        #expect(try Self.waitForSubscriber(fake, timeout: 15), "\(monitor.allLines)")
        try Self.send([Packet.measurement(rr: [760])], to: fake, expecting: 1, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// The device object disappears (a temporary device expiring) and is found again by discovery.
    @Test func removedDeviceIsFoundAgain() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [790])], to: fake, expecting: 1, in: monitor)
        try fake.range(false)
        try fake.run("remove \(Self.polar)")
        #expect(monitor.link("searching") != nil, "\(monitor.allLines.suffix(6))")
        try fake.range(true)
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.allLines.suffix(6))\n\(fake.fakeLog.suffix(1500))")
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [795])], to: fake, expecting: 2, in: monitor)
        #expect(monitor.beats == [790, 795])
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// bluetoothd restarts: every session is gone; hrvmon rebuilds all state from the new owner.
    @Test func bluetoothdRestartRebuildsEverything() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [780])], to: fake, expecting: 1, in: monitor)
        try fake.restart()
        #expect(monitor.link("bluetooth_unavailable") != nil)
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.allLines.suffix(6))")
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [785])], to: fake, expecting: 2, in: monitor)
        #expect(monitor.beats == [780, 785])
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func adapterPoweredOffAndOn() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForSubscriber(fake))
        try fake.power(false)
        #expect(monitor.link("adapter_off")?["detail"] as? String == "adapter hci0 is powered off: `bluetoothctl power on`; waiting")
        try fake.power(true)
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.allLines.suffix(6))")
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [777])], to: fake, expecting: 1, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// Notifications stop without a disconnect: the watchdog says so and subscribes afresh.
    @Test func watchdogResubscribesWhenNotificationsStop() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake, settings: Self.watchdogLink)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [810])], to: fake, expecting: 1, in: monitor)
        // Timers fire late on a busy machine: the silence said is the watchdog's period or more.
        let stall = try #require(monitor.link("stalled", timeout: Self.afterWatchdog(periods: 1))?["detail"] as? String)
        let silence = try #require(stall.wholeMatch(of: /no notification for (\d+) s/)?.1, "\(stall)")
        #expect(Int(silence)! >= Self.watchdogSeconds, "\(stall)")
        #expect(monitor.next { ($0["message"] as? String)?.hasPrefix("re-subscribing") == true } != nil)
        let deadline = Date().addingTimeInterval(5)
        while (try fake.sessions()["start_notify_calls"] as? Int ?? 0) < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try fake.sessions()["stop_notify_calls"] as? Int == 1)
        #expect(try fake.sessions()["start_notify_calls"] as? Int == 2)
        try Self.send([Packet.measurement(rr: [820])], to: fake, expecting: 2, in: monitor)
        #expect(monitor.link("connected")?["detail"] as? String == "Polar H10 A1B2C3D4 (\(Self.polar)): notifications resumed")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// The second stall asks BlueZ to disconnect and BlueZ refuses: the link says it will retry,
    /// gives up again while notifications stay away, and reconnects once BlueZ lets it.
    @Test func refusedDisconnectAfterAStallIsRetried() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.streaming(fake, settings: Self.watchdogLink)
        try fake.fail("Disconnect", with: "org.bluez.Error.Failed")
        // Two periods after the last beat: the stall, then the re-subscription's silence.
        #expect(monitor.next(timeout: Self.afterWatchdog(periods: 2)) {
            ($0["message"] as? String)?.hasPrefix("still no notifications after re-subscribing") == true
        } != nil, "\(monitor.allLines.suffix(6))")
        let retry = monitor.link("reconnecting")
        #expect((retry?["detail"] as? String)?.hasPrefix("disconnecting from Polar H10 A1B2C3D4 failed: org.bluez.Error.Failed") == true, "\(monitor.allLines.suffix(6))")
        #expect(retry?["retry_in_s"] as? Double != nil)
        #expect(monitor.link("disconnected", timeout: 15) != nil, "\(monitor.allLines.suffix(6))")
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.allLines.suffix(6))")
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [820])], to: fake, expecting: 2, in: monitor)
        let sessions = try fake.sessions()
        #expect(sessions["disconnect_calls"] as? Int == 2, "\(sessions)")
        #expect(sessions["connect_calls"] as? Int == 2, "\(sessions)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// BlueZ refuses that Disconnect, then notifications resume before the next watchdog period:
    /// the stall is over, with no reconnection.
    @Test func notificationsResumingAfterARefusedDisconnectEndTheStall() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.streaming(fake, settings: Self.watchdogLink)
        try fake.fail("Disconnect", with: "org.bluez.Error.Failed")
        #expect(monitor.link("reconnecting", timeout: Self.afterWatchdog(periods: 2)) != nil, "\(monitor.allLines.suffix(6))")
        try Self.send([Packet.measurement(rr: [820])], to: fake, expecting: 2, in: monitor)
        #expect(monitor.link("connected")?["detail"] as? String == "Polar H10 A1B2C3D4 (\(Self.polar)): notifications resumed")
        let sessions = try fake.sessions()
        #expect(sessions["disconnect_calls"] as? Int == 1 && sessions["connect_calls"] as? Int == 1, "\(sessions)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// Services never resolve and BlueZ refuses the Disconnect that gives up on them: the link
    /// retries rather than waiting in silence, and disconnects once BlueZ lets it.
    @Test func refusedDisconnectAfterUnresolvedServicesIsRetried() throws {
        var config = FakeBluetooth.Config()
        config.devices[0].resolveDelayMs = 600_000
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        try fake.fail("Disconnect", with: "org.bluez.Error.Failed")
        let monitor = try Self.monitor(fake)
        #expect(monitor.link("resolving") != nil, "\(monitor.allLines)")
        let retry = monitor.link("reconnecting")
        #expect((retry?["detail"] as? String)?.hasPrefix("disconnecting from Polar H10 A1B2C3D4 failed: org.bluez.Error.Failed") == true, "\(monitor.allLines.suffix(6))")
        #expect(monitor.link("disconnected", timeout: 15) != nil, "\(monitor.allLines.suffix(6))")
        #expect(try fake.sessions()["disconnect_calls"] as? Int == 2)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// Other signals (here the strap's Battery1 level changing) do not count as notifications:
    /// the watchdog still sees the stall.
    @Test func unrelatedSignalsDoNotHideAStall() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try Self.monitor(fake, settings: Self.watchdogLink)
        #expect(try Self.waitForSubscriber(fake))
        try Self.send([Packet.measurement(rr: [810])], to: fake, expecting: 1, in: monitor)
        // Battery signals for two and a half watchdog periods: the stall must show while they arrive.
        for level in 0..<(10 * Self.watchdogSeconds) {
            try fake.run("battery \(Self.polar) \(80 + level % 2)")
            Thread.sleep(forTimeInterval: 0.25)
        }
        #expect(monitor.link("stalled", timeout: 0.1) != nil, "\(monitor.allLines.filter { !$0.contains("\"rr\"") })")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func noAdapterAndBluetoothdAbsentAreSaid() throws {
        var config = FakeBluetooth.Config()
        config.adapters = []
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(monitor.link("no_adapter")?["detail"] as? String == "no Bluetooth adapter: plug one in, or check `rfkill list` (`rfkill unblock bluetooth`); waiting")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let scan = try LiveProcess(["scan", "--timeout", "1"], environment: fake.environment)
        #expect(scan.waitForExit() == 1)
        #expect(scan.stderr.contains("no Bluetooth adapter"))
    }

    /// bluetoothd not running at start: hrvmon waits for it and connects when it appears.
    @Test func waitsForBluetoothdToStart() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        fake.stopFake()
        let monitor = try Self.monitor(fake)
        #expect(monitor.link("bluetooth_unavailable")?["detail"] as? String
            == "bluetoothd is not on the system bus (org.freedesktop.DBus.Error.ServiceUnknown): start it with `sudo systemctl enable --now bluetooth` (Debian: `sudo apt install bluez` first if it is missing); waiting")
        let scan = try LiveProcess(["scan", "--timeout", "1"], environment: fake.environment)
        #expect(scan.waitForExit() == 1)
        #expect(scan.stderr.contains("bluetoothd is not on the system bus"))
        try fake.startFake()
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.allLines)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// Text for people on stdout; the session file gets the JSON Lines, 0600.
    @Test func textOutputAndSessionFile() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let monitor = try LiveProcess(["monitor", "--device", Self.polar, "--log", log], environment: fake.environment)
        #expect(try Self.waitForSubscriber(fake))
        for ticks in [[800, 810], [820, 830], [840]] { #expect(try fake.notify(Packet.measurement(heartRate: 74, rr: ticks)) == 1) }
        let deadline = Date().addingTimeInterval(10)
        while !monitor.allLines.contains(where: { $0.contains("RMSSD") }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let lines = monitor.allLines
        #expect(lines.dropLast().allSatisfy { $0.range(of: #"^\d\d:\d\d:\d\d  "#, options: .regularExpression) != nil }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("  connected: Polar H10 A1B2C3D4 (\(Self.polar))") })
        #expect(lines.contains { $0.hasSuffix("  worn on the chest") } && lines.contains { $0.hasSuffix("  battery 87 %") }, "\(lines)")
        #expect(lines.contains { $0.contains("  HR 76 bpm  RMSSD 9.8 ms  SDNN 6.9 ms  calibrating") }, "\(lines)")
        #expect(lines.dropLast().last?.contains("  5 beats, 0 malformed notifications in ") == true)
        #expect(lines.last == "saved as \(log)", "the end says where the session went")
        let attributes = try FileManager.default.attributesOfItem(atPath: log)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { LiveProcess.parse(String($0)) }
        #expect(SessionFileTests.beats(logged) == [800, 810, 820, 830, 840])
        #expect(logged.filter { $0["type"] as? String == "packet" }.count == 3, "one line per notification")
        #expect(logged.last?["type"] as? String == "summary")
    }
}
