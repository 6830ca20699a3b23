import Foundation
import TestSupport
import Testing

/// Audible pacing: heard through a real PulseAudio server in step with the pacer, the dashboard's
/// exercise cueing every phase, the words through speech-dispatcher's client, and silence with a
/// reason where no sound service runs.
@Suite(.serialized) struct AudiblePacingTests {
    /// A stand-in for a sound or speech client: logs the time and its arguments, one line each.
    static func fakeClient(named name: String, in directory: String, log: String) throws {
        let path = directory + "/" + name
        try "#!/bin/sh\necho \"$(date +%s.%N) $*\" >> \(log)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    static func logLines(_ path: String) -> [(time: Double, arguments: [String])] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map { line in
            let parts = line.split(separator: " ").map(String.init)
            return (Double(parts[0]) ?? 0, Array(parts.dropFirst()))
        }
    }

    /// How late each of `starts` is on `schedule` (both in seconds): a player or client starts
    /// late on a busy machine, never early, so lateness is measured from the least late start.
    static func lateness(_ starts: [Double], on schedule: [Double]) -> [Double] {
        let offsets = zip(starts, schedule).map { $0 - $1 }
        let least = offsets.min() ?? 0
        return offsets.map { $0 - least }
    }

    /// How late a start may be: within 30 ms on an idle machine; up to 0.2 s seen with both cores
    /// loaded by four other processes. A phase is 1 s at least, so a cue that late is still its own.
    static let allowedLateness = 0.3

    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-sound-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path + "/run", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path + "/bin", withIntermediateDirectories: true)
        return path
    }

    /// 2 s in, 1 s hold, 3 s out, twice, through the real server: each phase's sound starts when
    /// the phase does and lasts as long, the inhale rising and the exhale falling.
    @Test func aRealSoundServerHearsThePacerInStep() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let before = server.samples().count
        let result = try Hrvmon.run(["breathe", "--sound", "tone", "--pattern", "2-1-3", "--minutes", "0.2"], environment: server.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "a sound server runs: nothing to say")
        Thread.sleep(forTimeInterval: 0.5)
        let sounds = RecordedSound.find(in: Array(server.samples()[before...]), sampleRate: PulseAudioServer.sampleRate)
        let description = sounds.map { "\(($0.start * 100).rounded() / 100) s +\(($0.seconds * 100).rounded() / 100) s \(Int($0.startPitch))→\(Int($0.endPitch)) Hz peak \($0.peak)" }
        try #require(sounds.count == 6, "inhale, hold, exhale, twice: \(description)")
        // In step: each sound starts when its phase does (2 s, 1 s, 3 s apart), or a little late.
        let lateness = Self.lateness(sounds.map(\.start), on: [0, 2, 3, 6, 8, 9])
        #expect(lateness.allSatisfy { $0 < Self.allowedLateness }, "\(description)")
        // What each sound is: the tones glide a fifth (220 ↔ 330 Hz), the holds tick softly. Each
        // lasts its phase (within 40 ms idle), less its lateness: the next phase cuts it, and a
        // glide cut short ends short of its top or bottom note.
        for (index, sound) in sounds.enumerated() {
            func lastsItsPhase(_ seconds: Double) -> Bool {
                sound.seconds < seconds + 0.2 && sound.seconds > seconds - lateness[index] - 0.15
            }
            switch index % 3 {
            case 0:
                #expect(sound.startPitch < 245 && sound.endPitch > sound.startPitch + 50, "inhale rises: \(description[index])")
                #expect(lastsItsPhase(2), "inhale lasts its 2 s: \(description[index])")
            case 1:
                #expect(sound.peak < 5_000 && sound.seconds < 0.2, "a soft short tick: \(description[index])")
            default:
                #expect(sound.startPitch > 305 && sound.endPitch < sound.startPitch - 50, "exhale falls: \(description[index])")
                #expect(lastsItsPhase(3), "exhale lasts its 3 s: \(description[index])")
            }
        }
    }

    /// The dashboard's exercise (the demo takes one) cues every phase change through the sound
    /// client: inhale and exhale alternate 4 s and 6 s apart (resonance breathing at 6 a minute),
    /// each with a WAV file of the phase's length that Python's wave module reads.
    @Test func theDashboardsExerciseCuesEveryPhase() throws {
        let directory = try Self.directory()
        let log = directory + "/paplay.log"
        try Self.fakeClient(named: "paplay", in: directory + "/bin", log: log)
        // The client looks for the server's socket before playing anything.
        try FileManager.default.createDirectory(atPath: directory + "/run/pulse", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: directory + "/run/pulse/native", contents: nil))
        let terminal = try TmuxTerminal(width: 100, height: 40)
        defer { terminal.close() }
        try terminal.type(try DemoCommandTests.command(
            "demo --speed 100 --sound tone", environment: "PATH=\(directory)/bin:$PATH", home: directory))
        let deadline = Date().addingTimeInterval(60)
        while Self.logLines(log).count < 5, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        try terminal.key("q")
        let plays = Self.logLines(log)
        try #require(plays.count >= 5, "\(plays)")
        let files = plays.map { $0.arguments.last ?? "" }
        #expect(plays.allSatisfy { $0.arguments.first == "--client-name=hrvmon" })
        #expect(files.enumerated().allSatisfy { $0.element.hasSuffix($0.offset % 2 == 0 ? "/pacer-inhale-4000ms.wav" : "/pacer-exhale-6000ms.wav") }, "\(files)")
        let schedule = plays.indices.map { Double($0 / 2 * 10 + $0 % 2 * 4) }  // 0, 4, 10, 14, 20…
        let lateness = Self.lateness(plays.map(\.time), on: schedule)
        #expect(lateness.allSatisfy { $0 < Self.allowedLateness }, "cues \(plays.map(\.time)) late by \(lateness) s on \(schedule)")
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        reader.arguments = ["-c", "import sys, wave\nfor p in sys.argv[1:]:\n w = wave.open(p)\n print(w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes())", files[0], files[1]]
        let output = Pipe()
        reader.standardOutput = output
        try reader.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(text == "1 2 16000 64000\n1 2 16000 96000\n", "mono 16-bit 16 kHz, 4 s and 6 s")
    }

    /// speech: the phase's words through spd-say, one call per phase change.
    @Test func speechSaysEachPhase() throws {
        let directory = try Self.directory()
        let log = directory + "/spd-say.log"
        try Self.fakeClient(named: "spd-say", in: directory + "/bin", log: log)
        let result = try Hrvmon.run(
            // Half a second a phase: a cue's client is asked to end when the next phase starts, and
            // on a busy machine this stand-in takes a while to start and log.
            ["breathe", "--sound", "speech", "--pattern", "2-2-2", "--minutes", "0.2", "--speed", "4"],
            environment: ["PATH": directory + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(Self.logLines(log).map { $0.arguments.joined(separator: " ") }
            == ["breathe in", "hold", "breathe out", "breathe in", "hold", "breathe out"])
    }

    /// No sound server for this user (no socket in the runtime directory): the exercise runs
    /// as ever, silent, and says why once.
    @Test func withoutASoundServerThePacerIsSilentAndSaysWhy() throws {
        let directory = try Self.directory()
        let log = directory + "/paplay.log"
        try Self.fakeClient(named: "paplay", in: directory + "/bin", log: log)
        let result = try Hrvmon.run(
            ["breathe", "--sound", "tone", "--minutes", "0.1", "--speed", "10"],
            environment: ["PATH": directory + "/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR": directory + "/run"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("resonance: 6.0 breaths a minute for 6 s\n0:00 inhale 4.0 s\n"))
        #expect(result.stderr == "hrvmon: the pacer stays silent: no sound server runs for this user (no PulseAudio or PipeWire socket in $XDG_RUNTIME_DIR)\n")
        #expect(!FileManager.default.fileExists(atPath: log), "no client was started")
    }
}
