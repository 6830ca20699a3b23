import Foundation
import LiveSession
import TestSupport
import Testing

/// `monitor --lsl --ecg` against the fake bluetoothd's H10 (FakeBlueZ/pmd_strap.py): the strap's
/// accelerometer and ECG as LSL streams, received by pylsl and compared with every sample the
/// strap sent: values exactly, timestamps on the strap's sample clock, through a reconnect; and
/// `demo --ecg --lsl`'s simulated ECG.
@Suite(.serialized) struct LSLMeasurementDataTests {
    static let name = "Polar H10 A1B2C3D4"

    /// The stream's info: name, type, source id from the strap's address, rate, channels with
    /// labels and units, and the acquisition and sensor as the RR stream has them.
    static func expectInfo(_ info: [String: Any], type: String, rate: Double, channels: [[String: String]]) {
        #expect(info["name"] as? String == "hrvmon \(type) (\(name))")
        #expect(info["type"] as? String == type)
        #expect(info["source_id"] as? String == "hrvmon-\(type.lowercased())-\(FakeBluetooth.polar)")
        #expect(info["nominal_srate"] as? Double == rate)
        #expect(info["channel_count"] as? Int == channels.count)
        #expect(info["channel_format"] as? Int == 1)  // cf_float32
        #expect(info["channels"] as? [[String: String]] == channels)
        #expect(info["sensor"] as? [String: String] == ["name": name, "address": FakeBluetooth.polar])
        #expect(info["acquisition"] as? [String: String] == ["manufacturer": "hrvmon", "model": name, "serial_number": FakeBluetooth.polar])
    }

    /// What pylsl received of a stream is a run of what the strap sent, value for value; each
    /// timestamp is the sample's time on the strap's clock (the fake's monotonic clock, which is
    /// LSL's) plus a delivery delay of under half a second that, while the link stays up, grows
    /// by at most the placement's creep (0.1 ms) a frame, whatever the delivery's jitter, and
    /// shrinks as soon as a frame comes sooner (the strap's spacing kept exactly); the timestamps
    /// rise throughout.
    static func expectSamples(_ received: [(values: [Double], timestamp: Double)], _ sent: [[Double]], _ stream: String, rate: Double) throws {
        // LSL's clock against the wall clock is read again every second, each time to within
        // half of LSLPublisher.clockReadingWidth either way (and 1 µs of rounding).
        let slack = 1e-6 + LSLPublisher.clockReadingWidth
        let first = try #require(received.first, "no \(stream) samples")
        let starts = sent.indices.filter { start in
            start + received.count <= sent.count && zip(received, sent[start...]).allSatisfy { $0.values == Array($1.dropFirst()) }
        }
        let start = try #require(starts.min { abs(first.timestamp - sent[$0][0]) < abs(first.timestamp - sent[$1][0]) },
                                 "the \(received.count) \(stream) samples received are not a run of the \(sent.count) sent")
        var reconnects = 0
        for (index, sample) in received.enumerated() {
            let delay = sample.timestamp - sent[start + index][0]
            #expect(delay > -0.001 && delay < 0.5, "\(stream) sample \(index): \(delay) s after it was taken")
            guard index > 0 else { continue }
            #expect(sample.timestamp > received[index - 1].timestamp, "\(stream) sample \(index) goes back")
            // The strap's samples are 1/rate apart; a stream started again after the reconnect, later.
            if sent[start + index][0] - sent[start + index - 1][0] > 1.5 / rate {
                reconnects += 1
                continue
            }
            let before = received[index - 1].timestamp - sent[start + index - 1][0]
            #expect(delay <= before + 1e-4 + slack, "\(stream) sample \(index): the delay grew from \(before) to \(delay) s")
        }
        #expect(reconnects == 1, "\(stream): \(reconnects) gaps in what was sent")
    }

    /// `demo --ecg --lsl`: the simulated strap's accelerometer and ECG go out on LSL as
    /// `monitor --ecg` sends a strap's: the accelerometer in whole mG at 50 Hz, every second of
    /// it, the ECG every sample the session file keeps, in order, on rising timestamps; both open
    /// before the demo plays, so an inlet held by `--lsl-wait` misses none.
    @Test func demoPublishesItsAccelerometerAndECG() throws {
        let inlet = try LSLInlet(timeout: 120, measurementData: ["accelerometer", "ecg"])
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-lsl-ecg-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let demo = try LiveProcess(
            ["demo", "--ecg", "--lsl", "--lsl-wait", "30", "--scenario", "rest:1m", "--speed", "10", "--format", "jsonl", "--log", log],
            environment: inlet.environment)
        try inlet.waitUntilReady(timeout: 60)
        // Read while the demo plays: an inlet whose output is not read stops pulling.
        try inlet.waitForEnd(timeout: 120)
        #expect(demo.waitForExit(timeout: 60) == 0, "\(demo.stderr)")

        let info = inlet.infos["ecg"] ?? [:]
        #expect(info["name"] as? String == "hrvmon ECG (hrvmon demo strap)" && info["type"] as? String == "ECG", "\(info)")
        #expect(info["nominal_srate"] as? Double == 130)
        // Every sample the file keeps (its `uv` delta-coded), in the order kept.
        let recorded = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap { LiveProcess.parse(String($0)) }
            .filter { $0["type"] as? String == "ecg" }
            .flatMap { line in
                var sample = 0.0
                return ((line["uv"] as? [Double]) ?? []).enumerated().map { index, entry in
                    sample = index == 0 ? entry : sample + entry
                    return sample
                }
            }
        // Every sample: the streams were open, and had an inlet, before the demo played.
        let received = inlet.measurementData["ecg", default: []]
        #expect(recorded.count > 50 * 130, "\(recorded.count) samples recorded")
        #expect(received.map { $0.values.first ?? .nan } == recorded, "\(received.count) of \(recorded.count) samples received, or not as recorded")
        #expect(zip(received, received.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })

        let accelerometer = inlet.infos["accelerometer"] ?? [:]
        #expect(accelerometer["name"] as? String == "hrvmon Accelerometer (hrvmon demo strap)" && accelerometer["nominal_srate"] as? Double == 50, "\(accelerometer)")
        let motion = inlet.measurementData["accelerometer", default: []]
        #expect(motion.count == 60 * 50, "\(motion.count) accelerometer samples")
        #expect(motion.allSatisfy { $0.values.count == 3 && $0.values.allSatisfy { $0 == $0.rounded() } })
        #expect(zip(motion, motion.dropFirst()).allSatisfy { $0.timestamp < $1.timestamp })
        // Each announced once, with its first frame.
        let notices = LSLCommandTests.lines(demo.objects, "notice").compactMap { $0["message"] as? String }
        for type in ["Accelerometer", "ECG"] {
            #expect(notices.filter { $0 == "on the Lab Streaming Layer as hrvmon \(type) (hrvmon demo strap) too" }.count == 1, "\(notices)")
        }
    }

    @Test func monitorPublishesTheAccelerometerAndTheECGThroughAReconnect() throws {
        let fake = try FakeBluetooth(MeasurementDataTests.config())
        defer { fake.stop() }
        let inlet = try LSLInlet(timeout: 120, measurementData: ["accelerometer", "ecg"])
        let monitor = try LiveProcess(
            ["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl", "--lsl", "--ecg"],
            environment: fake.environment.merging(inlet.environment) { $1 }, settings: LiveProcess.fastLink)
        try inlet.waitUntilReady(timeout: 60)
        try inlet.waitForMeasurementData("ecg", count: 3 * 130)
        try fake.drop()
        #expect(monitor.link("disconnected") != nil && monitor.link("connected") != nil, "\(monitor.allLines.suffix(5))")
        let (ecg, accelerometer) = (inlet.measurementData["ecg", default: []].count, inlet.measurementData["accelerometer", default: []].count)
        try inlet.waitForMeasurementData("ecg", count: ecg + 3 * 130)
        try inlet.waitForMeasurementData("accelerometer", count: accelerometer + 3 * 50)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0, "\(monitor.stderr)")
        try inlet.waitForEnd()

        Self.expectInfo(
            inlet.infos["accelerometer"] ?? [:], type: "Accelerometer", rate: 50,
            channels: ["x", "y", "z"].map { ["label": "acc_\($0)", "unit": "mg", "type": "Accelerometer"] })
        Self.expectInfo(inlet.infos["ecg"] ?? [:], type: "ECG", rate: 130, channels: [["label": "ecg", "unit": "microvolts", "type": "ECG"]])
        let sent = try fake.measurementDataSent()
        try Self.expectSamples(inlet.measurementData["accelerometer", default: []], sent["acc", default: []], "accelerometer", rate: 50)
        try Self.expectSamples(inlet.measurementData["ecg", default: []], sent["ecg", default: []], "ECG", rate: 130)
        // Each announced once, when its first frame came: the same streams after the reconnect.
        let notices = LSLCommandTests.lines(monitor.objects, "notice").compactMap { $0["message"] as? String }
        for type in ["Accelerometer", "ECG"] {
            #expect(notices.filter { $0 == "on the Lab Streaming Layer as hrvmon \(type) (\(Self.name)) too" }.count == 1, "\(notices)")
        }
    }
}
