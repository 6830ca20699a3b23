import Foundation

/// A real PulseAudio server of the test's own (Debian's pulseaudio, in a private runtime
/// directory, so no user's sound is touched) with one null sink, and a recording of everything
/// played to it: what hrvmon's audible pacer really sounds like, through the real client library.
public final class PulseAudioServer {
    public let runtime: String
    private let home: String
    private let recording: String
    private var keepAlive: Process?
    private var recorder: Process?

    public static let sampleRate = 16_000

    /// Starts the server, a stream of silence that keeps the sink running (so the recording's
    /// clock runs continuously between sounds), and the recording; returns once samples arrive.
    public init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-pulse-\(UUID().uuidString.prefix(8))").path
        runtime = base + "/run"
        home = base + "/home"
        recording = base + "/recording.raw"
        for directory in [runtime, home] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try run("/usr/bin/pulseaudio", [
            "-n", "--daemonize=yes", "--exit-idle-time=-1", "--system=false", "--disallow-exit", "--log-target=file:\(base)/log",
            "-L", "module-null-sink sink_name=hrvmon_test", "-L", "module-native-protocol-unix",
        ])
        guard wait(until: { FileManager.default.fileExists(atPath: self.runtime + "/pulse/native") }) else {
            throw Failure(description: "pulseaudio did not start: \((try? String(contentsOfFile: base + "/log", encoding: .utf8)) ?? "")")
        }
        try run("/usr/bin/pactl", ["set-default-sink", "hrvmon_test"])
        keepAlive = try start("/usr/bin/pacat", ["--playback", "--raw", "--format=s16le", "--rate=16000", "--channels=1", "/dev/zero"])
        guard FileManager.default.createFile(atPath: recording, contents: nil) else {
            throw Failure(description: "cannot create \(recording)")
        }
        recorder = try start(
            "/usr/bin/parec", ["-d", "hrvmon_test.monitor", "--latency-msec=20", "--format=s16le", "--rate=16000", "--channels=1"],
            output: FileHandle(forWritingAtPath: recording))
        guard wait(until: { self.recordedBytes > 16_000 }) else { throw Failure(description: "parec records nothing") }
    }

    deinit { stop() }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The environment a client needs to reach this server.
    public var environment: [String: String] { ["XDG_RUNTIME_DIR": runtime, "HOME": home, "PULSE_SERVER": "unix:" + runtime + "/pulse/native"] }

    public var recordedBytes: Int { ((try? FileManager.default.attributesOfItem(atPath: recording))?[.size] as? Int) ?? 0 }

    /// What was played since the start, as samples at `sampleRate`.
    public func samples() -> [Int16] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: recording))) ?? Data()
        return stride(from: 0, to: data.count - 1, by: 2).map { Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
    }

    /// SIGKILL: the test runner's threads block SIGINT and SIGTERM, and children inherit that.
    public func stop() {
        for process in [recorder, keepAlive].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        recorder = nil
        keepAlive = nil
        if let pid = (try? String(contentsOfFile: runtime + "/pulse/pid", encoding: .utf8)).flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) {
            kill(pid, SIGKILL)
        }
    }

    private func run(_ path: String, _ arguments: [String]) throws {
        let process = try start(path, arguments)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(description: "\(path) \(arguments) exited \(process.terminationStatus)") }
    }

    /// Started with no pipes: the daemon pulseaudio forks keeps what it inherits.
    private func start(_ path: String, _ arguments: [String], output: FileHandle? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func wait(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition()
    }
}

/// Sounds found in a recording: stretches louder than a threshold, with their pitch at start and
/// end (upward zero crossings over 0.2 s inside each end).
public struct RecordedSound: Equatable {
    public var start: Double
    public var end: Double
    public var startPitch: Double
    public var endPitch: Double
    public var peak: Int

    public var seconds: Double { end - start }

    public static func find(in samples: [Int16], sampleRate: Int, threshold: Int = 1_500) -> [RecordedSound] {
        // 5-ms frames: a sound stopped at the next phase ends abruptly, and the next one's fade-in
        // stays under the threshold for only about 17 ms, which longer frames can straddle.
        let frame = sampleRate / 200
        var sounds: [RecordedSound] = []
        var open: Int?
        func close(_ first: Int, _ last: Int) {
            let slice = samples[first..<last]
            let edge = min(slice.count / 3, sampleRate / 5)
            func pitch(_ part: ArraySlice<Int16>) -> Double {
                let crossings = zip(part, part.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
                return part.isEmpty ? 0 : Double(crossings) * Double(sampleRate) / Double(part.count)
            }
            let margin = min(slice.count / 10, sampleRate / 20)
            sounds.append(RecordedSound(
                start: Double(first) / Double(sampleRate), end: Double(last) / Double(sampleRate),
                startPitch: pitch(slice.dropFirst(margin).prefix(edge)), endPitch: pitch(slice.dropLast(margin).suffix(edge)),
                peak: slice.map { abs(Int($0)) }.max() ?? 0))
        }
        for start in stride(from: 0, to: samples.count - frame, by: frame) {
            let loud = samples[start..<(start + frame)].contains { abs(Int($0)) > threshold }
            if loud, open == nil { open = start }
            if !loud, let first = open {
                close(first, start)
                open = nil
            }
        }
        if let first = open { close(first, samples.count) }
        return sounds
    }
}
