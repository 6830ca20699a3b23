import Foundation
import TestSupport
import Testing

/// The live pipeline gives the numbers `analyze` gives, and judges sensor-contact loss as unknown.
@Suite(.serialized) struct LiveMatchesAnalyzeTests {
    @Test func sameNumbersAsAnalyze() throws {
        // MIT-BIH NSR 5 min (the HRV fixtures' provenance) as strap ticks.
        let ticks = Fixture.ticks("mitbih_nsr_5min.txt")
        #expect(ticks.count == 337)
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        // One to three RR per packet, as straps send them.
        let packets = Packet.packed(ticks[...], heartRate: 70)
        try MonitorCommandTests.send(packets, to: fake, expecting: ticks.count, in: monitor)
        #expect(monitor.beats == ticks)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let summary = try #require(monitor.objects.last)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ticks-\(UUID().uuidString).txt")
        try (ticks.map(String.init).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let analyze = try LiveProcess(["analyze", "--unit", "ticks", "--format", "json", file.path], environment: [:])
        #expect(analyze.waitForExit() == 0, "\(analyze.stderr)")
        let metrics = try #require(LiveProcess.parse(analyze.allLines.joined()))
        #expect(summary["beats"] as? Int == metrics["raw_beats"] as? Int)
        for (live, offline) in [("rmssd_ms", "rmssd_ms"), ("sdnn_ms", "sdnn_ms"), ("hr_bpm", "mean_hr_bpm")] {
            let liveValue = try #require(summary[live] as? Double)
            let offlineValue = try #require(metrics[offline] as? Double, "\(offline) in \(metrics.keys)")
            #expect(abs(liveValue - offlineValue) < 1e-9, "\(live) \(liveValue) vs \(offlineValue)")
        }
    }

    /// Beats without skin contact are logged but never judged as stress: the state is unknown.
    @Test func noSensorContactIsUnknownNeverStress() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        // 4 min at rest with contact (calibration takes 3), then erratic short beats without contact.
        var packets: [[UInt8]] = []
        for index in 0..<240 { packets.append(Packet.measurement(heartRate: 60, rr: [1024 + (index % 2 == 0 ? 40 : -40)])) }
        for index in 0..<120 { packets.append(Packet.measurement(heartRate: 110, contact: false, rr: [560 + (index % 3) * 3])) }
        try MonitorCommandTests.send(packets, to: fake, expecting: 360, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let states = monitor.objects.filter { $0["type"] as? String == "metrics" }.compactMap { $0["state"] as? String }
        #expect(!states.contains("stress") && !states.contains("elevated"))
        #expect(states.suffix(100).allSatisfy { $0 == "unknown" }, "\(Set(states.suffix(100)))")
        #expect(monitor.objects.filter { $0["type"] as? String == "rr" && $0["contact"] as? String == "not_detected" }.count == 120)
    }
}
