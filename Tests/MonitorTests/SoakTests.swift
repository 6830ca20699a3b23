import Foundation
import Testing

/// Over an hour of real RR (the MIT-BIH fixtures: both 30-minute halves and the 5 minutes, 5,021 beats) streamed fast through the
/// fake bluetoothd, with a link loss every ~900 beats and a bluetoothd restart: every beat exactly
/// once, RSS flat, the session file complete.
@Suite(.serialized) struct SoakTests {
    static var hourOfTicks: [Int] {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("HRVTests/Fixtures")
        return ["mitbih_nsr_30min.txt", "mitbih_nsr_30min_b.txt", "mitbih_nsr_5min.txt"].flatMap { name in
            ((try? String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)) ?? "")
                .split(separator: "\n").filter { !$0.hasPrefix("#") }
                .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { Int(($0 * 1.024).rounded()) }
        }
    }

    static func residentKilobytes(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    @Test func anHourWithLinkLossesAndARestart() throws {
        let ticks = Self.hourOfTicks
        #expect(ticks.count == 4684 + 337)
        #expect(ticks.reduce(0, +) / 1024 > 3800, "over an hour of RR")
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        var sent = 0
        var residentSamples: [Int] = []
        for (chunk, start) in stride(from: 0, to: ticks.count, by: 900).enumerated() {
            let end = min(start + 900, ticks.count)
            try MonitorCommandTests.send(SessionFileTests.packets(ticks[start..<end]), to: fake, expecting: end, in: monitor)
            sent = end
            if let kilobytes = Self.residentKilobytes(monitor.process.processIdentifier) { residentSamples.append(kilobytes) }
            guard end < ticks.count else { break }
            if chunk == 2 {
                try fake.restart()
                #expect(monitor.next(timeout: 15) { $0["type"] as? String == "link" && $0["state"] as? String == "bluetooth_unavailable" } != nil)
            } else {
                try fake.drop()
                #expect(monitor.next(timeout: 15) { $0["type"] as? String == "link" && $0["state"] as? String == "disconnected" } != nil)
            }
            #expect(monitor.next(timeout: 20) { $0["type"] as? String == "link" && $0["state"] as? String == "connected" } != nil)
            #expect(try MonitorCommandTests.waitForSubscriber(fake))
        }
        #expect(sent == ticks.count)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 20) == 0)

        #expect(monitor.beats.count == ticks.count)
        #expect(monitor.beats == ticks, "stdout beats differ from those sent")
        // Flat memory: after the first chunk (warm-up) RSS grows by less than 2 MB over the hour.
        let warm = try #require(residentSamples.dropFirst().first)
        let peak = try #require(residentSamples.max())
        #if !SANITIZED  // scripts/sanitize.sh: ASan's quarantine holds up to 256 MB of freed memory, so RSS grows by design
        #expect(peak - warm < 2048, "RSS kB per chunk: \(residentSamples)")
        #endif

        let path = try #require(SessionFileTests.sessionFiles(monitor).first)
        let records = try SessionFileTests.records(path)
        let logged = records.filter { $0["type"] as? String == "rr" }
        #expect(logged.compactMap { $0["rr_1024"] as? Int } == ticks, "session file beats differ from those sent")
        #expect(logged.compactMap { $0["seq"] as? Int } == Array(1...ticks.count), "sequence numbers not 1…n")
        #expect(records.filter { $0["type"] as? String == "gap" }.count >= 5)
        #expect(records.last?["type"] as? String == "summary" && records.last?["beats"] as? Int == ticks.count)
    }
}
