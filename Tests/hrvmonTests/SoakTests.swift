import Foundation
import Simulation
import TestSupport
import Testing

/// An hour of real RR (the two 30-minute MIT-BIH NSR halves, 4,684 beats) from a sensor that
/// keeps sending through every fault: 20 link losses (drops and spells out of range), a
/// bluetoothd restart, ServicesResolved flapping and a GATT cache refresh, with jittered BlueZ
/// timing and Connected announced late. Every beat bluetoothd emitted arrives exactly once, RSS
/// stays flat, the session file holds the same beats.
@Suite(.serialized) struct SoakTests {
    static func residentKilobytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    @Test func twoHundredFortyFiveBeatsThroughALinkLossAndARestart() throws {
        let fake = try FakeBluetooth(ReconnectTests.config { $0.connectedSignalDelayMs = 60 })
        defer { fake.stop() }
        let monitor = try ReconnectTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: Array(ReconnectTests.fiveMinutes.prefix(245)), interval: 0.02)
        stream.start()
        #expect(stream.waitUntilSent(70))
        try fake.drop()
        #expect(stream.waitUntilSent(140))
        try fake.restart()
        #expect(stream.waitUntilFinished())
        ReconnectTests.expectEveryDeliveredBeatOnce(stream, monitor)
        #expect(stream.delivered.last?.number == stream.count - 1, "notifications flow again at the end")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func anHourThroughTwentyLinkLossesAndARestart() throws {
        let ticks = Fixture.ticks("mitbih_nsr_30min.txt") + Fixture.ticks("mitbih_nsr_30min_b.txt")
        #expect(ticks.count == 4684)
        #expect(ticks.reduce(0, +) / 1024 >= 3599, "an hour of RR")
        let fake = try FakeBluetooth(ReconnectTests.config({ $0.connectedSignalDelayMs = 60 }, seed: 7))
        defer { fake.stop() }
        let monitor = try ReconnectTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: ticks, interval: 0.004)
        stream.start()
        // A fault every ~150 notifications (strap seconds): 14 drops, 6 spells out of range
        // (20 link losses), 2 ServicesResolved flaps, a GATT cache refresh and a restart.
        let faults = (0..<14).map { _ in "drop" } + (0..<6).map { _ in "range" } + ["flap", "flap", "refresh", "restart"]
        var residentSamples: [Int] = []
        var shuffle = SeededGenerator(seed: 3)
        for (index, fault) in faults.shuffled(using: &shuffle).enumerated() {
            #expect(stream.waitUntilSent(150 * (index + 1)))
            switch fault {
            case "drop": try fake.drop()
            case "range":
                try fake.range(false)
                Thread.sleep(forTimeInterval: 0.3)
                try fake.range(true)
            case "flap": try fake.flap()
            case "refresh": try fake.flap(refresh: true)
            default: try fake.restart()
            }
            if let kilobytes = Self.residentKilobytes(monitor.process.processIdentifier) { residentSamples.append(kilobytes) }
        }
        #expect(stream.waitUntilFinished(timeout: 300))
        ReconnectTests.expectEveryDeliveredBeatOnce(stream, monitor)
        // The stream runs at 250× the strap's pace, so each outage costs dozens of its seconds:
        // those beats are lost in the air, as a strap's are while the link is down.
        let delivered = stream.delivered.reduce(0) { $0 + $1.rr.count }
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 20) == 0)
        let linkLosses = monitor.objects.filter { $0["type"] as? String == "link" && $0["state"] as? String == "disconnected" }.count
        #expect(linkLosses >= 20, "link losses seen: \(linkLosses)")
        print("soak: \(ticks.count) beats sent, \(delivered) emitted by bluetoothd while the link was up, \(monitor.beats.count) printed; \(linkLosses) link losses")

        // Flat memory: after the first samples (warm-up) RSS grows by less than 2 MB over the hour.
        let warm = try #require(residentSamples.dropFirst(2).first)
        let peak = try #require(residentSamples.max())
        #if !SANITIZED  // scripts/sanitize.sh: ASan's quarantine holds up to 256 MB of freed memory, so RSS grows by design
        #expect(peak - warm < 2048, "RSS kB per fault: \(residentSamples)")
        #endif

        let path = try #require(SessionFileTests.sessionFiles(monitor).first)
        let records = try SessionFileTests.records(path)
        #expect(SessionFileTests.beats(records) == monitor.beats, "session file beats differ from those printed")
        #expect(records.filter { $0["type"] as? String == "gap" }.count >= 20)
        #expect(records.last?["type"] as? String == "summary" && records.last?["beats"] as? Int == monitor.beats.count)
    }
}
