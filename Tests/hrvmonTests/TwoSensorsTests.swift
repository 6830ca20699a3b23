import Foundation
import TestSupport
import Testing

/// `monitor --device A --device B` against the fake bluetoothd serving two straps: each sensor
/// has its own link, session, numbers and file; its lines on stdout carry its `sensor`; losing
/// one link leaves the other's beats alone.
@Suite(.serialized) struct TwoSensorsTests {
    static let polar = FakeBluetooth.polar
    static let hrmPro = FakeBluetooth.hrmPro
    static let fiveMinutes = Fixture.ticks("mitbih_nsr_5min.txt")

    static func config(seed: Int? = nil) -> FakeBluetooth.Config {
        var config = FakeBluetooth.Config()
        config.devices = [.polarH10, .hrmPro, .mxKeys]
        config.jitter = seed.map { FakeBluetooth.Jitter(seed: $0) }
        return config
    }

    static func monitor(_ fake: FakeBluetooth, _ extra: [String] = []) throws -> LiveProcess {
        try LiveProcess(["monitor", "--device", polar, "--device", hrmPro, "--format", "jsonl"] + extra, environment: fake.environment)
    }

    static func waitForBothSubscribed(_ fake: FakeBluetooth) throws -> Bool {
        try MonitorCommandTests.waitForSubscriber(fake, device: polar) && MonitorCommandTests.waitForSubscriber(fake, device: hrmPro)
    }

    static func lines(_ monitor: LiveProcess, _ sensor: String, _ type: String) -> [[String: Any]] {
        monitor.objects.filter { $0["sensor"] as? String == sensor && $0["type"] as? String == type }
    }

    static func beats(_ monitor: LiveProcess, _ sensor: String) -> [Int] {
        lines(monitor, sensor, "rr").compactMap { $0["rr_1024"] as? Int }
    }

    @Test func eachSensorHasItsOwnLinesSessionAndFile() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForBothSubscribed(fake), "\(monitor.allLines)\n\(monitor.stderr)")
        #expect(try fake.notify(Packet.measurement(rr: [800, 810]), device: Self.polar) == 1)
        #expect(try fake.notify(Packet.measurement(rr: [900]), device: Self.hrmPro) == 1)
        #expect(try fake.notify(Packet.measurement(rr: [820]), device: Self.polar) == 1)
        #expect(try fake.notify(Packet.measurement(rr: [910, 920]), device: Self.hrmPro) == 1)
        #expect(monitor.waitForBeats(6), "\(monitor.allLines)\n\(monitor.stderr)")
        let noted = try SessionCommandsTests.run(["note", "both straps on"], in: monitor.home)
        #expect(noted.status == 0, "\(noted.stderr)")
        #expect(monitor.next { $0["type"] as? String == "note" } != nil)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0, "\(monitor.stderr)")

        #expect(Self.beats(monitor, Self.polar) == [800, 810, 820])
        #expect(Self.beats(monitor, Self.hrmPro) == [900, 910, 920])
        #expect(monitor.objects.allSatisfy { [Self.polar, Self.hrmPro].contains($0["sensor"] as? String) }, "every line names its sensor")
        #expect(Self.lines(monitor, Self.polar, "rr").compactMap { $0["seq"] as? Int } == [1, 2, 3], "each session numbers its own beats")
        #expect(Self.lines(monitor, Self.hrmPro, "sensor").contains { $0["name"] as? String == "HRM-Pro:123456" })
        #expect(Self.lines(monitor, Self.polar, "summary").first?["beats"] as? Int == 3)
        #expect(Self.lines(monitor, Self.hrmPro, "summary").first?["beats"] as? Int == 3)
        #expect(Self.lines(monitor, Self.polar, "note").count == 1 && Self.lines(monitor, Self.hrmPro, "note").count == 1)
        // Neither sensor is "the one used last": which would it be?
        #expect(!FileManager.default.fileExists(atPath: monitor.home + "/data/hrvmon/last-sensor"))

        // Two ordinary single-sensor session files, without the stdout label.
        let files = SessionFileTests.sessionFiles(monitor)
        #expect(files.count == 2, "\(files)")
        var byAddress: [String: [[String: Any]]] = [:]
        for path in files {
            let records = try SessionFileTests.records(path)
            #expect(records.allSatisfy { $0["sensor"] == nil }, "\(path) has the stdout label")
            let address = try #require((records.first?["device"] as? [String: Any])?["address"] as? String)
            byAddress[address] = records
        }
        for (address, expected) in [(Self.polar, [800, 810, 820]), (Self.hrmPro, [900, 910, 920])] {
            let records = try #require(byAddress[address], "no file for \(address)")
            #expect(SessionFileTests.beats(records) == expected)
            #expect(records.filter { $0["type"] as? String == "note" }.compactMap { $0["text"] as? String } == ["both straps on"])
            #expect(records.last?["type"] as? String == "summary")
            // The stdout lines of that sensor are every event's line, but for the label: its beats too.
            let printed = monitor.objects.filter { $0["sensor"] as? String == address }
            #expect(printed.filter { $0["type"] as? String == "rr" }.compactMap { $0["rr_1024"] as? Int } == expected)
            #expect(printed.filter { $0["type"] as? String == "note" }.count == 1)
        }
    }

    /// The Polar drops its link three times while both straps stream (jittered, batched by the
    /// fake): every beat the HRM-Pro sent reaches its session once, in order, with no gap and no
    /// link change; its beats keep coming while the Polar is away; the Polar's beats resume and
    /// none of those bluetoothd delivered is lost or doubled.
    @Test func losingOneLinkLeavesTheOtherAlone() throws {
        let fake = try FakeBluetooth(Self.config(seed: 7))
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForBothSubscribed(fake))
        let polar = SensorStream(fake, ticks: Self.fiveMinutes, interval: 0.01, device: Self.polar)
        let hrmPro = SensorStream(fake, ticks: Self.fiveMinutes.reversed(), interval: 0.01, device: Self.hrmPro)
        polar.start()
        hrmPro.start()
        for at in [50, 120, 190] {
            #expect(polar.waitUntilSent(at))
            try fake.drop(Self.polar)
        }
        #expect(polar.waitUntilFinished() && hrmPro.waitUntilFinished())
        for (stream, sensor) in [(polar, Self.polar), (hrmPro, Self.hrmPro)] {
            let delivered = stream.delivered.filter { !$0.rr.isEmpty }
            let expected = delivered.reduce(0) { $0 + $1.rr.count }
            let deadline = Date().addingTimeInterval(15)
            while Self.beats(monitor, sensor).count < expected && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            Thread.sleep(forTimeInterval: 0.2)  // a duplicate would be out by now
            let received = SensorStream.received(monitor, sensor: sensor)
            #expect(received.map(\.number) == delivered.map(\.number), "\(sensor): notifications printed differ from those delivered")
            #expect(received.map(\.rr) == delivered.map(\.rr), "\(sensor): beats differ")
        }
        #expect(hrmPro.delivered.count == hrmPro.count, "bluetoothd delivered every HRM-Pro notification")
        #expect(Self.lines(monitor, Self.hrmPro, "gap").isEmpty)
        let hrmProStates = Self.lines(monitor, Self.hrmPro, "link").compactMap { $0["state"] as? String }
        #expect(hrmProStates.filter { $0 == "connected" }.count == 1 && hrmProStates.last == "connected", "HRM-Pro link: \(hrmProStates)")
        let polarLinkLines = monitor.objects.filter { $0["sensor"] as? String == Self.polar && ["gap", "link"].contains($0["type"] as? String) }
        #expect(Self.lines(monitor, Self.polar, "gap").count == 3, "Polar's gap and link lines: \(polarLinkLines)")
        #expect(Self.lines(monitor, Self.polar, "link").filter { $0["state"] as? String == "disconnected" }.count == 3)

        // While the Polar was away (disconnected until connected again), HRM-Pro beats went on.
        var away = false
        var beatsWhileAway: [Int] = []
        for line in monitor.objects {
            if line["sensor"] as? String == Self.polar, line["type"] as? String == "link" {
                let state = line["state"] as? String
                if state == "disconnected" { away = true; beatsWhileAway.append(0) }
                if state == "connected" { away = false }
            } else if away, line["sensor"] as? String == Self.hrmPro, line["type"] as? String == "rr" {
                beatsWhileAway[beatsWhileAway.count - 1] += 1
            }
        }
        #expect(beatsWhileAway.count == 3 && beatsWhileAway.allSatisfy { $0 > 0 }, "HRM-Pro beats during each Polar loss: \(beatsWhileAway)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    /// Each sensor's numbers are those `analyze` gives for its beats alone, and its session file
    /// replays to them, while the other strap streams other beats beside it.
    @Test func eachSensorGivesTheNumbersAnalyzeGives() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try Self.waitForBothSubscribed(fake))
        let polarTicks = Self.fiveMinutes
        let hrmProTicks = Array(Self.fiveMinutes.reversed().prefix(250))
        let polarPackets = Packet.packed(polarTicks[...], heartRate: 70), hrmProPackets = Packet.packed(hrmProTicks[...], heartRate: 70)
        for index in 0..<max(polarPackets.count, hrmProPackets.count) {
            if index < polarPackets.count { #expect(try fake.notify(polarPackets[index], device: Self.polar) == 1) }
            if index < hrmProPackets.count { #expect(try fake.notify(hrmProPackets[index], device: Self.hrmPro) == 1) }
        }
        #expect(monitor.waitForBeats(polarTicks.count + hrmProTicks.count))
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)

        for (sensor, ticks) in [(Self.polar, polarTicks), (Self.hrmPro, hrmProTicks)] {
            #expect(Self.beats(monitor, sensor) == ticks)
            let summary = try #require(Self.lines(monitor, sensor, "summary").first)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("ticks-\(UUID().uuidString).txt")
            try (ticks.map(String.init).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let analyze = try LiveProcess(["analyze", "--unit", "ticks", "--format", "json", file.path], environment: [:])
            #expect(analyze.waitForExit() == 0, "\(analyze.stderr)")
            let offline = try #require(LiveProcess.parse(analyze.allLines.joined()))
            let path = try #require(SessionFileTests.sessionFiles(monitor).first { path in
                (try? SessionFileTests.records(path).first?["device"] as? [String: Any])??["address"] as? String == sensor
            })
            let replay = try LiveProcess(["analyze", "--format", "json", path], environment: [:])
            #expect(replay.waitForExit() == 0, "\(replay.stderr)")
            let replayed = try #require(LiveProcess.parse(replay.allLines.joined()))
            #expect(summary["beats"] as? Int == offline["raw_beats"] as? Int && replayed["raw_beats"] as? Int == ticks.count)
            for (live, key) in [("rmssd_ms", "rmssd_ms"), ("sdnn_ms", "sdnn_ms"), ("hr_bpm", "mean_hr_bpm")] {
                let liveValue = try #require(summary[live] as? Double)
                let offlineValue = try #require(offline[key] as? Double)
                #expect(abs(liveValue - offlineValue) < 1e-9, "\(sensor) \(live) \(liveValue) vs analyze \(offlineValue)")
                #expect(liveValue == replayed[key] as? Double, "\(sensor) \(live) vs its session file's replay")
            }
        }
    }

    @Test(arguments: [
        (["monitor", "--device", polar, "--device", hrmPro, "--log", "/tmp/x.jsonl"], "--log names one file"),
        (["monitor", "--device", polar, "--device", polar.lowercased()], "the same --device is given twice"),
        (["resonance", "--device", polar, "--device", hrmPro], "resonance follows one sensor"),
        (["check", "--device", polar, "--device", hrmPro], "check follows one sensor"),
    ])
    func badCombinationsAreRefused(arguments: [String], message: String) throws {
        let result = try Hrvmon.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Text lines start with the sensor, so two straps can be told apart on a terminal.
    @Test func textLinesNameTheirSensor() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let monitor = try LiveProcess(
            ["monitor", "--device", Self.polar, "--device", Self.hrmPro, "--format", "text"], environment: fake.environment)
        // Stopped once both are connected: a --duration would have to outlast their connecting,
        // which takes two seconds on a busy machine (measured with two CPU hogs per core).
        for sensor in [Self.polar, Self.hrmPro] {
            #expect(monitor.waitForLine(timeout: 15) { $0.contains("[\(sensor)]  ") && $0.contains("connected") }, "\(monitor.allLines)")
        }
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 15) == 0, "\(monitor.stderr)")
        let lines = monitor.allLines
        #expect(lines.allSatisfy { $0.contains("[\(Self.polar)]  ") || $0.contains("[\(Self.hrmPro)]  ") }, "\(lines)")
    }

    /// On a terminal: one dashboard with a section per sensor; a link loss shows in its own
    /// section only; `n` notes into both sessions, `b` breathes in both, `q` ends both and
    /// leaves both summaries on the normal screen.
    @Test func dashboardOnATerminal() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let home = try DemoCommandTests.home()
        try FileManager.default.createDirectory(atPath: home + "/config/hrvmon", withIntermediateDirectories: true)
        try LiveProcess.fastLink.write(toFile: home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        let terminal = try TmuxTerminal(width: 80, height: 24)
        defer { terminal.close() }
        try terminal.type(try DemoCommandTests.command(
            "monitor --device \(Self.polar) --device \(Self.hrmPro)", environment: "DBUS_SYSTEM_BUS_ADDRESS=\(fake.address)", home: home))
        func heading(_ tag: String, _ name: String, _ screen: String) -> String? {
            screen.split(separator: "\n").first { $0.hasPrefix(" \(tag)  \(name)") }.map(String.init)
        }
        #expect(terminal.wait(timeout: 15) {
            heading("A", "Polar H10", $0)?.contains("·  connected") == true && heading("B", "HRM-Pro", $0)?.contains("·  connected") == true
        }, "\(terminal.screen)")
        #expect(try Self.waitForBothSubscribed(fake))
        for index in 0..<4 {
            #expect(try fake.notify(Packet.measurement(heartRate: 70, rr: [860 + index * 10]), device: Self.polar) == 1)
            #expect(try fake.notify(Packet.measurement(heartRate: 64, rr: [950 - index * 10, 960 - index * 10]), device: Self.hrmPro) == 1)
        }
        #expect(terminal.wait { heading("A", "Polar", $0)?.hasSuffix("4 beats") == true && heading("B", "HRM-Pro", $0)?.hasSuffix("8 beats") == true },
                "\(terminal.screen)")
        try fake.drop(Self.polar)
        #expect(terminal.wait { $0.contains("[A] disconnected") }, "\(terminal.screen)")
        #expect(terminal.wait(timeout: 15) { heading("A", "Polar", $0)?.contains("·  connected") == true }, "\(terminal.screen)")
        #expect(!terminal.screen.contains("[B] disconnected"))

        try terminal.key("n")
        try terminal.type("both on", enter: true)
        #expect(terminal.wait { $0.contains("[A] note: both on") && $0.contains("[B] note: both on") }, "\(terminal.screen)")
        try terminal.key("b")
        #expect(terminal.wait { $0.contains(" b stop breathing") }, "\(terminal.screen)")
        try terminal.key("q")
        #expect(terminal.wait(timeout: 15) { $0.contains("EXIT=0") }, "\(terminal.screen)")
        let screen = terminal.screen
        for (sensor, beats) in [(Self.polar, 4), (Self.hrmPro, 8)] {
            #expect(screen.split(separator: "\n").contains { $0.hasPrefix("[\(sensor)]  ") && $0.contains("  \(beats) beats, 0 malformed") }, "\(screen)")
        }

        let directory = home + "/data/hrvmon/sessions"
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).map { directory + "/" + $0 }
        #expect(files.count == 2)
        for path in files {
            let records = try SessionFileTests.records(path)
            #expect(records.filter { $0["type"] as? String == "note" }.compactMap { $0["text"] as? String } == ["both on"], "\(path)")
            #expect(records.filter { $0["type"] as? String == "exercise" }.count == 2, "started by b, stopped by q: \(path)")
        }
    }

    /// `--lsl` with two sensors: each publishes its own RR and Markers streams (a pylsl inlet per
    /// sensor, resolving by its address); each receives exactly its sensor's beats on its `t`,
    /// and only the Polar's link loss is marked.
    @Test func lslPublishesEachSensorsOwnStreams() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let polarInlet = try LSLInlet(address: Self.polar)
        let hrmProInlet = try LSLInlet(address: Self.hrmPro, session: polarInlet)
        let monitor = try LiveProcess(
            ["monitor", "--device", Self.polar, "--device", Self.hrmPro, "--format", "jsonl", "--lsl"],
            environment: fake.environment.merging(polarInlet.environment) { $1 })
        #expect(try Self.waitForBothSubscribed(fake))
        try polarInlet.waitUntilReady()
        try hrmProInlet.waitUntilReady()
        let ticks = try SessionFileTests.simulatedTicks("rest:2m")
        for packet in Packet.packed(ticks[..<30]) { #expect(try fake.notify(packet, device: Self.polar) == 1) }
        for packet in Packet.packed(ticks[60..<100]) { #expect(try fake.notify(packet, device: Self.hrmPro) == 1) }
        #expect(monitor.waitForBeats(70), "\(monitor.stderr)")
        try fake.drop(Self.polar)
        for state in ["disconnected", "connected"] {
            #expect(monitor.next { $0["sensor"] as? String == Self.polar && $0["type"] as? String == "link" && $0["state"] as? String == state } != nil)
        }
        #expect(try MonitorCommandTests.waitForSubscriber(fake, device: Self.polar))
        for packet in Packet.packed(ticks[30..<60]) { #expect(try fake.notify(packet, device: Self.polar) == 1) }
        #expect(monitor.waitForBeats(100), "\(monitor.stderr)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0, "\(monitor.stderr)")
        try polarInlet.waitForEnd()
        try hrmProInlet.waitForEnd()

        for (inlet, sensor, name, markers) in [
            (polarInlet, Self.polar, "Polar H10 A1B2C3D4", ["link_lost", "link_restored"]), (hrmProInlet, Self.hrmPro, "HRM-Pro:123456", []),
        ] {
            let own = monitor.objects.filter { $0["sensor"] as? String == sensor }
            try LSLCommandTests.expectSessionReceived(inlet, own, tolerance: 0.005)
            #expect(inlet.markers.map(\.text) == markers, "\(sensor)")
            LSLCommandTests.expectStreamInfo(inlet, name: name, address: sensor)
        }
        #expect(polarInlet.beats.count == 60 && hrmProInlet.beats.count == 40)
    }

    /// Stress on one of two people: the Polar streams rest, stress, rest; the HRM-Pro rest only.
    /// Only the Polar's session suggests breathing (no false alarm on the other), and each desktop
    /// notification says which sensor it is about.
    @Test func stressOnOneSensorIsNamedOnTheDesktop() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let notifications = try FakeNotifications()
        defer { notifications.stop() }
        let monitor = try LiveProcess(
            ["monitor", "--device", Self.polar, "--device", Self.hrmPro, "--format", "jsonl"],
            environment: fake.environment.merging(notifications.environment) { $1 },
            settings: LiveProcess.fastLink + "\nbreathing.cooldown_seconds = 0\nnotify.min_interval_seconds = 0\n")
        #expect(try Self.waitForBothSubscribed(fake))
        let stressed = try SessionFileTests.simulatedTicks(), resting = try SessionFileTests.simulatedTicks("rest:8m")
        let polarPackets = Packet.packed(stressed[...]), hrmProPackets = Packet.packed(resting[...])
        for index in 0..<max(polarPackets.count, hrmProPackets.count) {
            if index < polarPackets.count { #expect(try fake.notify(polarPackets[index], device: Self.polar) == 1) }
            if index < hrmProPackets.count { #expect(try fake.notify(hrmProPackets[index], device: Self.hrmPro) == 1) }
        }
        #expect(monitor.waitForBeats(stressed.count + resting.count, timeout: 30))
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0, "\(monitor.stderr)")

        let polarSuggestions = Self.lines(monitor, Self.polar, "suggestion")
        #expect(polarSuggestions.count >= 1)
        #expect(Self.lines(monitor, Self.hrmPro, "suggestion").isEmpty, "resting, the HRM-Pro's wearer is not told to breathe")
        #expect(Self.lines(monitor, Self.hrmPro, "stress").isEmpty)
        // Each ended episode may also be asked about ("Was that stress?"), naming the sensor too.
        let all = notifications.calls(polarSuggestions.count, timeout: 10) + notifications.calls(2, timeout: 1.5)
        let calls = DesktopNotificationTests.suggestionBubbles(all)
        #expect(calls.count == polarSuggestions.count, "\(all)\n\(notifications.serverLog)")
        for call in calls {
            #expect(call["summary"] as? String == "Stress on Polar H10 A1B2C3D4: try 5 min of resonance breathing", "\(call)")
        }
        for question in all where !calls.contains(where: { $0["summary"] as? String == question["summary"] as? String }) {
            #expect((question["summary"] as? String)?.hasPrefix("Stress on Polar H10 A1B2C3D4 episode ") == true, "\(question)")
        }
    }
}
