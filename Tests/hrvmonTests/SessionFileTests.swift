import Foundation
import TestSupport
import Testing

/// The session file `monitor` keeps: where it lives, what it holds, that it survives `kill -9`
/// and write failures, and that `analyze` replays it to the live numbers.
@Suite(.serialized) struct SessionFileTests {
    /// A simulated scenario (seed 3) as ticks; by default 4 min rest, 3 min stress and 1 min rest
    /// with ectopic beats.
    static func simulatedTicks(_ scenario: String = "rest:4m,stress:3m,rest:1m,ectopic=1/min") throws -> [Int] {
        let simulate = try LiveProcess(["simulate", "--scenario", scenario, "--seed", "3"], environment: [:])
        #expect(simulate.waitForExit() == 0)
        return simulate.allLines.compactMap(Double.init).map { Int(($0 * 1.024).rounded()) }
    }

    static func sessionFiles(_ monitor: LiveProcess) -> [String] {
        let directory = monitor.home + "/data/hrvmon/sessions"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map { directory + "/" + $0 }
    }

    /// The file's lines as objects (decompressed first when the session has been closed).
    static func records(_ path: String) throws -> [[String: Any]] {
        try SessionFileContent.text(path).split(separator: "\n").map { line in
            try #require(LiveProcess.parse(String(line)), "not JSON: \(line)")
        }
    }

    /// The beats a file's packet lines hold, in order.
    static func beats(_ records: [[String: Any]]) -> [Int] {
        records.filter { $0["type"] as? String == "packet" }.flatMap { $0["rr_1024"] as? [Int] ?? [] }
    }

    /// A session file's id: its name without `.jsonl` or `.jsonl.gz`.
    static func id(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return String(name.prefix { $0 != "." })
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Every beat once, a link loss recorded as a gap, and `analyze SESSION` giving the session's
    /// own numbers exactly: whole-session metrics, stress episodes, beats.
    @Test func replayGivesTheLiveNumbers() throws {
        let ticks = try Self.simulatedTicks()
        #expect(ticks.count > 500)
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let half = ticks.count / 2
        try MonitorCommandTests.send(Packet.packed(ticks[..<half]), to: fake, expecting: half, in: monitor)
        try fake.drop()
        #expect(monitor.link("disconnected") != nil)
        #expect(monitor.link("connected", timeout: 15) != nil)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send(Packet.packed(ticks[half...]), to: fake, expecting: ticks.count, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)

        let files = Self.sessionFiles(monitor)
        let path = try #require(files.first, "no session file; stderr: \(monitor.stderr)")
        #expect(files.count == 1)
        #expect(try Self.mode(path) == 0o600)
        #expect(try Self.mode(monitor.home + "/data/hrvmon/sessions") == 0o700)
        #expect(try Self.mode(monitor.home + "/data/hrvmon") == 0o700)
        let records = try Self.records(path)
        let header = try #require(records.first)
        #expect(path.hasSuffix(".jsonl.gz"), "a closed session is compressed")
        #expect(header["type"] as? String == "session" && header["format"] as? String == "hrvmon-session" && header["version"] as? Int == 2)
        #expect((header["device"] as? [String: Any])?["address"] as? String == FakeBluetooth.polar)
        #expect((header["device"] as? [String: Any])?["name"] as? String == "Polar H10 A1B2C3D4")
        #expect((header["config"] as? [String: Any])?["window.rmssd_seconds"] as? String == "60")
        #expect(header["id"] as? String == Self.id(path))
        // Every beat, in packets of one to three as they were sent; no rr or nn lines.
        #expect(Self.beats(records) == ticks, "beats differ")
        #expect(!records.contains { ["rr", "nn"].contains($0["type"] as? String) })
        #expect(records.filter { $0["type"] as? String == "gap" }.count == 1)
        // Metrics every 10 s of session time, not at every notification.
        let metrics = records.filter { $0["type"] as? String == "metrics" }.compactMap { $0["session_s"] as? Double }
        #expect(metrics.count > 5 && Set(metrics.map { ($0 / 10).rounded(.down) }).count == metrics.count)
        let summary = try #require(records.last)
        #expect(summary["type"] as? String == "summary" && summary["beats"] as? Int == ticks.count)
        let liveStress = records.filter { $0["type"] as? String == "stress" }
        #expect(liveStress.count == 1)
        // stdout still has every beat's rr and nn line (the --format jsonl contract).
        let printed = monitor.allLines.compactMap { LiveProcess.parse($0) }
        #expect(printed.filter { $0["type"] as? String == "rr" }.compactMap { $0["rr_1024"] as? Int } == ticks)
        #expect(printed.filter { $0["type"] as? String == "rr" }.compactMap { $0["seq"] as? Int } == Array(1...ticks.count))
        // One packet line for each notification the rr lines name.
        let notifications = Set(printed.filter { $0["type"] as? String == "rr" }.compactMap { $0["pkt"] as? Int })
        #expect(records.filter { $0["type"] as? String == "packet" }.count == notifications.count)
        let placed = printed.filter { $0["type"] as? String == "nn" }
        #expect(placed.count >= ticks.count - 10 && placed.contains { $0["class"] as? String == "ectopic" })

        let analyze = try LiveProcess(["analyze", "--format", "json", path], environment: [:])
        #expect(analyze.waitForExit() == 0, "\(analyze.stderr)")
        let replay = try #require(LiveProcess.parse(analyze.allLines.joined()))
        #expect(replay["raw_beats"] as? Int == ticks.count)
        for (live, offline) in [("rmssd_ms", "rmssd_ms"), ("sdnn_ms", "sdnn_ms"), ("hr_bpm", "mean_hr_bpm")] {
            let liveValue = try #require(summary[live] as? Double)
            #expect(liveValue == replay[offline] as? Double, "\(live)")
        }
        // The whole recording's research measures come with the replay too.
        let frequency = try #require(replay["frequency"] as? [String: Any])
        #expect((frequency["hf_ms2"] as? Double ?? 0) > 0)
        #expect((replay["nonlinear"] as? [String: Any])?["dfa_alpha1"] is Double)
        let replayedStress = try #require(replay["stress_windows"] as? [[String: Any]])
        #expect(replayedStress.count == liveStress.count)
        for (live, replayed) in zip(liveStress, replayedStress) {
            #expect(live["start_s"] as? Double == replayed["start_s"] as? Double)
            #expect(live["end_s"] as? Double == replayed["end_s"] as? Double)
            #expect(live["peak_level"] as? Double == replayed["peak_level"] as? Double)
        }
        // The session's first minutes went into the personal resting history, under its id.
        let history = try String(contentsOfFile: monitor.home + "/data/hrvmon/baseline.json", encoding: .utf8)
        #expect(history.contains(header["id"] as! String))
    }

    /// `kill -9`: every beat printed is already in the file, each line whole; `analyze` reads it.
    /// A line cut short by a crash is skipped and reported.
    @Test func killNineKeepsEveryWrittenBeat() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let ticks = Array(repeating: [800, 820, 790], count: 20).flatMap { $0 }
        try MonitorCommandTests.send(Packet.packed(ticks[...]), to: fake, expecting: ticks.count, in: monitor)
        monitor.signal(SIGKILL)
        #expect(monitor.waitForExit() == SIGKILL)
        let path = try #require(Self.sessionFiles(monitor).first)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let records = try Self.records(path)
        #expect(!path.hasSuffix(".gz"), "a session that did not end is not compressed")
        #expect(Self.beats(records) == ticks, "beats differ")
        #expect(!records.contains { $0["type"] as? String == "summary" })

        let analyze = try LiveProcess(["analyze", "--format", "json", path], environment: [:])
        #expect(analyze.waitForExit() == 0, "\(analyze.stderr)")
        #expect(LiveProcess.parse(analyze.allLines.joined())?["raw_beats"] as? Int == ticks.count)

        // Power lost in the middle of a line.
        try (text + #"{"type":"packet","t":17000"#).write(toFile: path, atomically: false, encoding: .utf8)
        let torn = try LiveProcess(["analyze", "--format", "json", path], environment: [:])
        #expect(torn.waitForExit() == 0)
        let lineCount = text.split(separator: "\n").count + 1
        #expect(torn.stderr.contains("\(path):\(lineCount): the last line was cut short"), "\(torn.stderr)")
        #expect(LiveProcess.parse(torn.allLines.joined())?["raw_beats"] as? Int == ticks.count)
    }

    /// A full disk: said at once, monitoring goes on (or, configured, stops with status 1).
    @Test(arguments: [("warn", Int32(0)), ("stop", Int32(1))])
    func diskFullIsSaidNeverSilent(policy: String, status: Int32) throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try LiveProcess(
            ["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl", "--log", "/dev/full"], environment: fake.environment,
            settings: LiveProcess.fastLink + "\nlog.on_error = \(policy)\n")
        // The first lines are written once the sensor is known, before any beat.
        let notice = monitor.next { $0["type"] as? String == "notice" }
        let message = try #require(notice?["message"] as? String)
        #expect(message.contains("cannot write the session log /dev/full: No space left on device"), "\(message)")
        if policy == "warn" {
            #expect(message.contains("monitoring goes on without it"))
            #expect(try MonitorCommandTests.waitForSubscriber(fake))
            try MonitorCommandTests.send([Packet.measurement(rr: [800]), Packet.measurement(rr: [810])], to: fake, expecting: 2, in: monitor)
            monitor.signal(SIGINT)
        } else {
            #expect(message.contains("stopping (log.on_error = stop)"))
        }
        #expect(monitor.waitForExit() == status)
    }

    /// A path that cannot be created: warned, and the session runs without a file; `--no-log`
    /// keeps none; an existing session file is never appended to. (A directory that does not
    /// exist is refused before the session starts: OptionParsingTests.)
    @Test func unwritableExistingAndNoLog() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        // A directory where the file should be: open(2) refuses it.
        let directory = Hrvmon.freshHome()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let unwritable = try MonitorCommandTests.monitor(fake, ["--log", directory])
        let notice = unwritable.next { $0["type"] as? String == "notice" }
        #expect((notice?["message"] as? String)?.contains("\(directory): Is a directory") == true)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        unwritable.signal(SIGINT)
        #expect(unwritable.waitForExit() == 0)

        let noLog = try MonitorCommandTests.monitor(fake, ["--no-log"])
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send([Packet.measurement(rr: [800])], to: fake, expecting: 1, in: noLog)
        noLog.signal(SIGINT)
        #expect(noLog.waitForExit() == 0)
        #expect(Self.sessionFiles(noLog).isEmpty)

        let existing = FileManager.default.temporaryDirectory.appendingPathComponent("existing-\(UUID().uuidString).jsonl").path
        try "{\"type\":\"session\"}\n".write(toFile: existing, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: existing) }
        let refused = try MonitorCommandTests.monitor(fake, ["--log", existing])
        let refusal = refused.next { $0["type"] as? String == "notice" }
        #expect((refusal?["message"] as? String)?.contains("already exists and is not empty") == true)
        refused.signal(SIGINT)
        #expect(refused.waitForExit() == 0)
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "{\"type\":\"session\"}\n")
    }
}
