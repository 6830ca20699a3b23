import Foundation
import TestSupport
import Testing

/// `--lsl` end to end: the real binary publishing, pylsl (the reference LSL client) receiving, and
/// what it received compared with the session's own lines: every beat once, in order, with its
/// value and its time; the markers at their events.
@Suite(.serialized) struct LSLCommandTests {
    /// The session's lines of `type`.
    static func lines(_ objects: [[String: Any]], _ type: String) -> [[String: Any]] {
        objects.filter { $0["type"] as? String == type }
    }

    /// The markers a session's lines call for, with the `t` of each (docs/research.md, "Markers"): the stress
    /// onset at the first `metrics` in state stress after the last episode ended, its end at the
    /// `stress` line; exercises, notes; the link lost when a connected link leaves that state other
    /// than by stopping, restored when it is connected again.
    static func expectedMarkers(_ objects: [[String: Any]]) -> [(text: String, t: Double)] {
        var markers: [(String, Double)] = []
        var stressOpen = false
        var (connected, lost) = (false, false)
        for object in objects {
            let t = object["t"] as? Double ?? .nan
            switch object["type"] as? String {
            case "metrics" where object["state"] as? String == "stress" && !stressOpen:
                stressOpen = true
                markers.append(("stress_on", t))
            case "stress":
                stressOpen = false
                markers.append(("stress_off", t))
            case "exercise":
                markers.append((object["event"] as? String == "started" ? "breathing_start" : "breathing_stop", t))
            case "note":
                markers.append(("note: " + (object["text"] as? String ?? ""), t))
            case "link":
                let state = object["state"] as? String
                if state == "connected" {
                    if lost { markers.append(("link_restored", t)) }
                    (connected, lost) = (true, false)
                } else if connected, !lost, state != "stopped" {
                    lost = true
                    markers.append(("link_lost", t))
                }
            default:
                break
            }
        }
        return markers
    }

    /// Every `rr` line arrived as one sample, in order, with its `rr_ms` exactly (float32 holds
    /// every 1/1024 s value exactly) and its `t` moved onto LSL's clock by one offset, within
    /// `tolerance`; every marker likewise. Returns the offset (LSL timestamp − `t`).
    @discardableResult
    static func expectSessionReceived(_ inlet: LSLInlet, _ objects: [[String: Any]], tolerance: Double) throws -> Double {
        let beats = lines(objects, "rr")
        #expect(beats.count > 0)
        #expect(inlet.beats.count == beats.count, "received \(inlet.beats.count) of \(beats.count) beats")
        #expect(inlet.beats.map(\.milliseconds) == beats.map { $0["rr_ms"] as? Double ?? .nan })
        let times = beats.map { $0["t"] as? Double ?? .nan }
        let offset = try #require(inlet.beats.first).timestamp - times[0]
        let worst = zip(inlet.beats, times).map { abs($0.timestamp - $1 - offset) }.max() ?? .nan
        #expect(worst <= tolerance, "a beat's timestamp is \(worst) s off its line's t")
        // Spaced as the beats: the RR after each, within a notification, to the microsecond.
        for (index, beat) in beats.enumerated().dropFirst() where beat["pkt"] as? Int == beats[index - 1]["pkt"] as? Int {
            let spacing = inlet.beats[index].timestamp - inlet.beats[index - 1].timestamp
            #expect(abs(spacing - (beat["rr_ms"] as? Double ?? 0) / 1000) < 1e-5, "beat \(index): \(spacing) s after the one before")
        }
        let expected = expectedMarkers(objects)
        #expect(inlet.markers.map(\.text) == expected.map(\.text))
        for (received, line) in zip(inlet.markers, expected) {
            #expect(abs(received.timestamp - line.t - offset) <= tolerance, "\(received.text): \(received.timestamp - line.t - offset) s off")
        }
        return offset
    }

    static func expectStreamInfo(_ inlet: LSLInlet, name: String, address: String) {
        let rr = inlet.infos["rr"] ?? [:], markers = inlet.infos["markers"] ?? [:]
        #expect(rr["name"] as? String == "hrvmon RR (\(name))" && markers["name"] as? String == "hrvmon Markers (\(name))")
        #expect(rr["type"] as? String == "RR" && markers["type"] as? String == "Markers")
        #expect(rr["source_id"] as? String == "hrvmon-rr-\(address)" && markers["source_id"] as? String == "hrvmon-markers-\(address)")
        #expect(rr["nominal_srate"] as? Double == 0 && markers["nominal_srate"] as? Double == 0)
        #expect(rr["channel_count"] as? Int == 1 && markers["channel_count"] as? Int == 1)
        // pylsl's cf_float32 and cf_string.
        #expect(rr["channel_format"] as? Int == 1 && markers["channel_format"] as? Int == 3)
        #expect(rr["channels"] as? [[String: String]] == [["label": "rr_ms", "unit": "ms", "type": "RR"]])
        for info in [rr, markers] {
            #expect(info["sensor"] as? [String: String] == ["name": name, "address": address])
            #expect(info["acquisition"] as? [String: String] == ["manufacturer": "hrvmon", "model": name, "serial_number": address])
        }
    }

    /// The demo at ×50 with a note: all 648 beats and the stress, breathing and note markers,
    /// spaced as the session's `t` (session time laid on LSL's clock).
    @Test func demoPublishesEveryBeatAndMarker() throws {
        let inlet = try LSLInlet()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-lsl-demo-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let demo = try LiveProcess(
            ["demo", "--lsl", "--lsl-wait", "30", "--speed", "50", "--format", "jsonl", "--log", log], environment: inlet.environment)
        try inlet.waitUntilReady()
        #expect(demo.waitForBeats(100, timeout: 30))
        let noted = try SessionCommandsTests.run(["note", "felt tense ü"], in: demo.home)
        #expect(noted.status == 0, "\(noted)")
        #expect(demo.waitForExit(timeout: 60) == 0, "\(demo.stderr)")
        try inlet.waitForEnd()

        let objects = demo.objects
        #expect(Self.lines(objects, "rr").count == 648)
        #expect(Self.lines(objects, "note").count == 1)
        try Self.expectSessionReceived(inlet, objects, tolerance: 1e-6)
        #expect(inlet.markers.map(\.text).sorted() == ["breathing_start", "breathing_stop", "note: felt tense ü", "stress_off", "stress_on"])
        Self.expectStreamInfo(inlet, name: "hrvmon demo strap", address: "00:00:5E:00:53:01")
        let notices = Self.lines(objects, "notice").compactMap { $0["message"] as? String }
        #expect(notices.contains("on the Lab Streaming Layer as hrvmon RR (hrvmon demo strap) and hrvmon Markers (hrvmon demo strap) (liblsl 1.18)"), "\(notices)")
        // The session file holds the same beats as stdout, in packet lines.
        let file = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { LiveProcess.parse(String($0)) }
        #expect(SessionFileTests.beats(file) == Self.lines(objects, "rr").compactMap { $0["rr_1024"] as? Int })
    }

    /// monitor against the fake bluetoothd: beats before and after a link loss, a note; every beat
    /// on LSL's clock at its `t` (the wall clock's offset to the monotonic one), the markers.
    @Test func monitorPublishesEveryBeatThroughALinkLoss() throws {
        let ticks = try SessionFileTests.simulatedTicks("rest:2m")
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let inlet = try LSLInlet()
        let monitor = try LiveProcess(
            ["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl", "--lsl"], environment: fake.environment.merging(inlet.environment) { $1 })
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try inlet.waitUntilReady()
        try MonitorCommandTests.send(Packet.packed(ticks[..<60]), to: fake, expecting: 60, in: monitor)
        #expect(try SessionCommandsTests.run(["note", "before the drop"], in: monitor.home).status == 0)
        try fake.drop()
        #expect(monitor.link("disconnected") != nil && monitor.link("connected") != nil, "\(monitor.allLines.suffix(5))")
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send(Packet.packed(ticks[60..<120]), to: fake, expecting: 120, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0, "\(monitor.stderr)")
        try inlet.waitForEnd()

        let objects = monitor.objects
        let offset = try Self.expectSessionReceived(inlet, objects, tolerance: 0.005)
        #expect(inlet.markers.map(\.text) == ["note: before the drop", "link_lost", "link_restored"])
        // LSL's clock is CLOCK_MONOTONIC: the offset is the monotonic clock's to the wall clock's.
        let clocks = ProcessInfo.processInfo.systemUptime - Date().timeIntervalSince1970
        #expect(abs(offset - clocks) < 0.05, "LSL timestamp − t = \(offset), monotonic − wall = \(clocks)")
        Self.expectStreamInfo(inlet, name: "Polar H10 A1B2C3D4", address: FakeBluetooth.polar)
        // Said once, when the sensor was known, before the first beat.
        let announced = objects.firstIndex { ($0["message"] as? String)?.hasPrefix("on the Lab Streaming Layer as hrvmon RR (Polar H10 A1B2C3D4)") == true }
        #expect(announced != nil && announced! < (objects.firstIndex { $0["type"] as? String == "rr" } ?? 0), "\(objects.prefix(12))")
        #expect(Self.lines(objects, "notice").filter { ($0["message"] as? String)?.contains("Lab Streaming Layer") == true }.count == 1)
    }

    /// Without liblsl, `--lsl` says what to install and exits 1 before it starts anything: no bus,
    /// no session, nothing on stdout.
    @Test func withoutLiblslLslSaysWhatToInstall() throws {
        for command in [["demo", "--lsl", "--format", "jsonl"], ["monitor", "--device", FakeBluetooth.polar, "--lsl", "--format", "jsonl"]] {
            let result = try Hrvmon.run(
                command, environment: ["HRVMON_LIBLSL": "/nonexistent/liblsl.so", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"])
            #expect(result.status == 1, "\(command[0]): \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("hrvmon: --lsl needs liblsl, the Lab Streaming Layer library"), "\(result.stderr)")
            #expect(result.stderr.contains("HRVMON_LIBLSL=/nonexistent/liblsl.so: /nonexistent/liblsl.so: cannot open shared object file"))
            #expect(result.stderr.contains("python3 -m pip install --user pylsl") && result.stderr.contains("github.com/sccn/liblsl/releases"))
        }
        // And without --lsl, nothing looks for it.
        let plain = try Hrvmon.run(["demo", "--duration", "5", "--speed", "1000", "--format", "jsonl"], environment: ["HRVMON_LIBLSL": "/nonexistent/liblsl.so"])
        #expect(plain.status == 0 && !plain.stderr.contains("liblsl"), "\(plain.stderr)")
    }

    /// pylsl's liblsl without $HRVMON_LIBLSL: through $PYLSL_LIB as pylsl reads it, and from a
    /// `pip install --user pylsl` under the home directory, found by itself.
    @Test func pylslsLiblslIsFoundWithoutHrvmonLiblsl() throws {
        let (home, _) = try LSLInlet.homeWithUserPylsl("lsl-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        // Resolution on this machine only, and liblsl's log kept quiet.
        let configuration = home + "/lsl_api.cfg"
        try "[multicast]\nResolveScope = machine\n[log]\nlevel = -3\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        #expect(ProcessInfo.processInfo.environment["HRVMON_LIBLSL"] == nil)
        let arguments = ["demo", "--lsl", "--duration", "3", "--speed", "100", "--format", "jsonl"]
        for environment in [["PYLSL_LIB": LSLInlet.library], ["HOME": home]] {
            let result = try Hrvmon.run(arguments, environment: environment.merging(["LSLAPICFG": configuration]) { $1 })
            #expect(result.status == 0, "\(environment): \(result.stderr)")
            #expect(result.stdout.contains("on the Lab Streaming Layer as hrvmon RR"), "\(environment): \(result.stdout.prefix(600))")
        }
    }

    /// liblsl logs on stderr by default, which would write over the dashboard: without an
    /// lsl_api.cfg of the user's, hrvmon tells it to log only what is fatal.
    @Test func liblslIsQuietUnlessConfigured() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-lsl-quiet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["demo", "--lsl", "--duration", "3", "--speed", "100", "--format", "jsonl"]
        #expect(ProcessInfo.processInfo.environment["LSLAPICFG"] == nil && !FileManager.default.fileExists(atPath: "/etc/lsl_api/lsl_api.cfg"))
        let quiet = try Hrvmon.run(arguments, environment: ["HRVMON_LIBLSL": LSLInlet.library], directory: directory)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        // With the user's own configuration, its log level applies: liblsl's INFO lines then.
        try "[log]\nlevel = 0\n".write(to: directory.appendingPathComponent("lsl_api.cfg"), atomically: true, encoding: .utf8)
        let configured = try Hrvmon.run(arguments, environment: ["HRVMON_LIBLSL": LSLInlet.library], directory: directory)
        #expect(configured.status == 0 && configured.stderr.contains("Configuration loaded from lsl_api.cfg"), "\(configured.stderr)")
    }

    @Test func lslWaitGoesWithLsl() throws {
        let result = try Hrvmon.run(["demo", "--lsl-wait", "5"])
        #expect(result.status == 2 && result.stderr.contains("--lsl-wait goes with --lsl"), "\(result.stderr)")
    }
}
