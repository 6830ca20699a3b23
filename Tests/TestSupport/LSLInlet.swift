import Foundation

/// pylsl, the reference LSL client, receiving hrvmon's streams: `LSLInlet/lsl_inlet.py` run with
/// the pylsl that scripts/install-deps.sh installs under .build/pylsl, and liblsl from its wheel
/// for hrvmon too. Each inlet gets an LSL configuration of its own: resolution on this machine
/// only, in a session id no other run shares.
public final class LSLInlet: @unchecked Sendable {
    /// Where scripts/install-deps.sh puts pylsl (`pip install --target`).
    public static let pylsl = Repository.root.appendingPathComponent(".build/pylsl").path
    /// The liblsl of pylsl's wheel.
    public static let library = pylsl + "/pylsl/lib/liblsl.so"
    public static let script = Bundle.module.url(forResource: "lsl_inlet", withExtension: "py", subdirectory: "LSLInlet")!.path

    /// A home directory with `pip install --user pylsl` in it, its liblsl the real one above;
    /// returns the home and the path where that liblsl lies. The caller removes the home.
    public static func homeWithUserPylsl(_ label: String) throws -> (home: String, library: String) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-\(label)-\(UUID().uuidString)").path
        let lib = home + "/.local/lib/python3.11/site-packages/pylsl/lib"
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: lib + "/liblsl.so", withDestinationPath: library)
        return (home, lib + "/liblsl.so")
    }

    /// What the inlet printed: the stream infos ("rr", "markers"), then each stream's samples in
    /// the order received.
    public private(set) var infos: [String: [String: Any]] = [:]
    public private(set) var beats: [(milliseconds: Double, timestamp: Double)] = []
    public private(set) var markers: [(text: String, timestamp: Double)] = []
    /// The Measurement Data streams' samples ("accelerometer", "ecg"), every channel.
    public private(set) var measurementData: [String: [(values: [Double], timestamp: Double)]] = [:]
    public private(set) var ended = false

    /// What a process publishing to this inlet needs in its environment: the wheel's liblsl and
    /// this inlet's configuration.
    public let environment: [String: String]
    private let directory: String
    private let process: Process
    private let reader: LineReader
    private let log: String

    /// Starts resolving; `timeout` bounds the inlet's whole run. `address`: only that sensor's
    /// streams (one of several); `session`: on another inlet's LSL session, so one publisher
    /// reaches both; `measurementData`: those Measurement Data streams too ("accelerometer", "ecg").
    public init(timeout: Double = 60, address: String? = nil, session: LSLInlet? = nil, measurementData: [String] = []) throws {
        guard FileManager.default.fileExists(atPath: Self.library) else {
            throw TestChild.Failure(description: "no pylsl at \(Self.pylsl): run scripts/install-deps.sh (it installs pylsl there with pip)")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-lsl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let configuration = session.map { $0.directory + "/lsl_api.cfg" } ?? directory + "/lsl_api.cfg"
        // machine: multicast on 127.0.0.1 only; KnownPeers: unicast resolution of this host too.
        if session == nil { try """
            [multicast]
            ResolveScope = machine
            [lab]
            SessionID = hrvmon-test-\(UUID().uuidString)
            KnownPeers = {127.0.0.1}
            [log]
            level = -3
            """.write(toFile: configuration, atomically: true, encoding: .utf8) }
        environment = ["HRVMON_LIBLSL": Self.library, "LSLAPICFG": configuration]
        log = directory + "/inlet.log"
        let childEnvironment = ProcessInfo.processInfo.environment.merging(environment.merging(["PYTHONPATH": Self.pylsl]) { $1 }) { $1 }
        (process, _, reader) = try TestChild.spawn(
            FakeBluetooth.python, [Self.script, "--timeout", String(timeout)] + (address.map { ["--address", $0] } ?? []) + (measurementData.isEmpty ? [] : ["--measurement-data", measurementData.joined(separator: ",")]), environment: childEnvironment, log: log)
    }

    public var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Reads until `stream` ("accelerometer", "ecg") has given `count` samples.
    public func waitForMeasurementData(_ stream: String, count: Int, timeout: Double = 30) throws {
        try read(timeout: timeout) { _ in self.measurementData[stream, default: []].count >= count }
    }

    /// Reads until the inlet has opened both streams (after printing their infos).
    public func waitUntilReady(timeout: Double = 30) throws {
        try read(until: "ready", timeout: timeout)
    }

    /// Reads every sample until both outlets are gone and the inlet ends.
    public func waitForEnd(timeout: Double = 30) throws {
        try read(until: "end", timeout: timeout)
        ended = true
    }

    /// Reads until the inlet has received `beats` RR samples and `markers` markers.
    public func waitForSamples(beats: Int, markers: Int, timeout: Double = 30) throws {
        try read(timeout: timeout) { _ in self.beats.count >= beats && self.markers.count >= markers }
    }

    private func read(until event: String, timeout: Double) throws {
        try read(timeout: timeout) { $0 == event }
    }

    /// Reads line after line until `done` holds after one (it is given the line's event).
    private func read(timeout: Double, until done: (String) -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let line = try TestChild.nextLine(reader, of: process, before: deadline, "the pylsl inlet", log: logText)
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let kind = object["event"] as? String
            else { throw TestChild.Failure(description: "the pylsl inlet printed \(line)") }
            switch kind {
            case "info":
                infos[object["stream"] as? String ?? ""] = object
            case "sample":
                let timestamp = object["timestamp"] as? Double ?? .nan
                if let values = object["values"] as? [Double] {
                    measurementData[object["stream"] as? String ?? "", default: []].append((values, timestamp))
                } else if object["stream"] as? String == "markers" {
                    markers.append((object["value"] as? String ?? "", timestamp))
                } else {
                    beats.append((object["value"] as? Double ?? .nan, timestamp))
                }
            default:
                break
            }
            if done(kind) { return }
        }
    }

    deinit {
        TestChild.terminate(process, grace: 2)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
