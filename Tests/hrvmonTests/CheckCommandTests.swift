import Foundation
import TestSupport
import Testing

/// `hrvmon check` end to end: the real binary on the fake bluetoothd, a simulated resting strap's
/// beats sent as fast as the bus takes them (the check counts the beats' own time).
@Suite(.serialized) struct CheckCommandTests {
    static let environment = ["TZ": "UTC"]

    /// Resting RR of the simulator, strap ticks.
    static let ticks: [Int] = (try? SessionFileTests.simulatedTicks("rest:3m")) ?? []

    /// Starts a 1-minute check (after 30 s of settling) in `home`.
    static func check(_ fake: FakeBluetooth, home: String? = nil, _ extra: [String] = []) throws -> LiveProcess {
        try LiveProcess(
            ["check", "--device", FakeBluetooth.polar, "--minutes", "1", "--format", "json"] + extra,
            environment: fake.environment.merging(environment) { $1 }, home: home)
    }

    /// Sends beats until `seconds` of RR are through (and the corrector's look-ahead after them).
    static func send(seconds: Double, to fake: FakeBluetooth, from ticks: [Int]) throws {
        var sent = 0.0
        var index = 0
        while sent < seconds + 5, index < ticks.count {
            let rr = Array(ticks[index..<min(index + 2, ticks.count)])
            _ = try fake.notify(Packet.measurement(heartRate: 60 * 1024 / rr[0], rr: rr))
            sent += Double(rr.reduce(0, +)) / 1024
            index += rr.count
        }
    }

    /// RMSSD and heart rate of the intervals that start at 30 s or later and end by 90 s.
    static func expected(_ ticks: [Int]) -> (ln: Double, heartRate: Double, beats: Int) {
        var end = 0.0
        var measured: [Double] = []
        for tick in ticks {
            let start = end
            end += Double(tick) / 1024
            if start >= 30, end <= 90 { measured.append(Double(tick) * 1000 / 1024) }
        }
        let differences = zip(measured.dropFirst(), measured).map { $0 - $1 }
        let rmssd = (differences.map { $0 * $0 }.reduce(0, +) / Double(differences.count)).squareRoot()
        return (log(rmssd), 60_000 / (measured.reduce(0, +) / Double(measured.count)), measured.count)
    }

    static func json(_ process: LiveProcess) throws -> [String: Any] {
        try #require(process.objects.last, "\(process.allLines)\n\(process.stderr)")
    }

    @Test func measuresKeepsAndReplacesTheDaysCheck() throws {
        #expect(Self.ticks.count > 150)
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let check = try Self.check(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try Self.send(seconds: 90, to: fake, from: Self.ticks)
        #expect(check.waitForExit(timeout: 20) == 0, "\(check.stderr)")
        let result = try Self.json(check)
        let expected = Self.expected(Self.ticks)
        #expect(result["corrected_pct"] as? Double == 0)
        #expect(result["beats"] as? Int == expected.beats)
        #expect(abs((result["ln_rmssd"] as? Double ?? 0) - expected.ln) < 1e-9, "\(result)")
        #expect(abs((result["resting_hr_bpm"] as? Double ?? 0) - expected.heartRate) < 1e-9)
        #expect(result["verdict"] as? String == "no_range" && result["kept"] as? Bool == true)
        #expect(result["utc_offset_s"] as? Int == 0)
        let sessions = try fake.sessions()
        #expect(sessions["connected"] as? Bool == false, "the check disconnects when done")

        let home = check.home
        let stored = try String(contentsOfFile: home + "/data/hrvmon/baseline.json", encoding: .utf8)
        #expect(stored.contains("\"kind\" : \"check\"") && stored.contains("\"utc_offset_s\" : 0"), "\(stored)")

        // A second check the same day replaces the first, and says so.
        let again = try Self.check(fake, home: home)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try Self.send(seconds: 90, to: fake, from: Array(Self.ticks.dropFirst(20)))
        #expect(again.waitForExit(timeout: 20) == 0, "\(again.stderr)")
        let second = try Self.json(again)
        #expect(second["replaced_day"] as? String == result["day"] as? String)
        let history = try SessionCommandsTests.run(["history", "--days", "1", "--format", "json"], in: home)
        let days = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
        #expect(days.first?["morning_check"] as? Bool == true)
        #expect(days.first?["ln_rmssd"] as? Double == second["ln_rmssd"] as? Double)
    }

    /// With 60 days of history the verdict is the 7-day mean against mean ± SD of the 60 days
    /// before, recomputed here.
    @Test func judgesAgainstTheNormalRange() throws {
        let home = Hrvmon.freshHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/data/hrvmon", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/config/hrvmon", withIntermediateDirectories: true)
        try LiveProcess.fastLink.write(toFile: home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        // Days 1…60 before today, every third missing; a high, steady level.
        var values: [(day: Int, ln: Double)] = []
        for before in 1...60 where before % 3 != 0 { values.append((before, 4.6 + 0.05 * Double(before % 5))) }
        let records = values.map { value in
            let day = formatter.string(from: calendar.date(byAdding: .day, value: -value.day, to: Date())!)
            return "{\"day\":\"\(day)\",\"ln_rmssd\":\(value.ln),\"resting_hr_bpm\":52,\"source\":\"s\(value.day)\"}"
        }
        try "{\"measurements\":[\(records.joined(separator: ","))],\"version\":1}".write(
            toFile: home + "/data/hrvmon/baseline.json", atomically: true, encoding: .utf8)

        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let check = try Self.check(fake, home: home, ["--dry-run"])
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try Self.send(seconds: 90, to: fake, from: Self.ticks)
        #expect(check.waitForExit(timeout: 20) == 0, "\(check.stderr)")
        let result = try Self.json(check)
        let before = values.map(\.ln)
        let mean = before.reduce(0, +) / Double(before.count)
        let sd = (before.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(before.count - 1)).squareRoot()
        #expect(abs((result["range_ln_rmssd_low"] as? Double ?? 0) - (mean - sd)) < 1e-12)
        #expect(abs((result["range_ln_rmssd_high"] as? Double ?? 0) - (mean + sd)) < 1e-12)
        #expect(result["range_days"] as? Int == before.count)
        let today = try #require(result["ln_rmssd"] as? Double)
        let week = values.filter { $0.day <= 6 }.map(\.ln) + [today]
        let weekMean = week.reduce(0, +) / Double(week.count)
        #expect(abs((result["ln_rmssd_7d_mean"] as? Double ?? 0) - weekMean) < 1e-12)
        // Simulated rest sits well below this history's level: a lasting drop.
        #expect(today < mean - sd && weekMean < mean - sd)
        #expect(result["verdict"] as? String == "week_below")
        #expect(result["kept"] as? Bool == false)
        let stored = try String(contentsOfFile: home + "/data/hrvmon/baseline.json", encoding: .utf8)
        #expect(!stored.contains("check"), "--dry-run keeps nothing")
    }

    /// For people: instructions, a countdown line a phase and each half minute, the result and
    /// the verdict, on the generated 90-day history of LongViewTests (shifted to end yesterday).
    /// The output is kept in .build/test-artifacts/check.txt (the example in docs/guide/morning-check.md).
    @Test func textForPeople() throws {
        let home = Hrvmon.freshHome()
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/data/hrvmon", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/config/hrvmon", withIntermediateDirectories: true)
        try LiveProcess.fastLink.write(toFile: home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        let fixture = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: Fixture.url("readiness_reference.json"))) as? [String: Any])
        let travel = try #require((fixture["histories"] as? [[String: Any]])?.first { $0["name"] as? String == "travel" })
        var records = try #require(travel["records"] as? [[String: Any]])
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let today = try #require(travel["today"] as? String)
        let last = try #require(formatter.date(from: today))
        let shift = (Date().timeIntervalSince(last) / 86_400).rounded(.down) - 1
        for index in records.indices {
            let text = try #require(records[index]["day"] as? String)
            let day = try #require(formatter.date(from: text))
            records[index]["day"] = formatter.string(from: day.addingTimeInterval(shift * 86_400))
            records[index]["t"] = (records[index]["t"] as? Double ?? 0) + shift * 86_400
            if records[index]["kind"] is NSNull { records[index]["kind"] = nil }
        }
        try JSONSerialization.data(withJSONObject: ["measurements": records, "version": 1]).write(
            to: URL(fileURLWithPath: home + "/data/hrvmon/baseline.json"))

        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let check = try LiveProcess(
            ["check", "--device", FakeBluetooth.polar, "--minutes", "1"], environment: fake.environment.merging(Self.environment) { $1 },
            home: home)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try Self.send(seconds: 90, to: fake, from: Self.ticks)
        #expect(check.waitForExit(timeout: 20) == 0, "\(check.stderr)")
        let lines = check.allLines
        try? FileManager.default.createDirectory(atPath: HeadlessChromium.artifacts, withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(toFile: HeadlessChromium.artifacts + "/check.txt", atomically: true, encoding: .utf8)
        #expect(lines.first == "Morning check: 0:30 to settle, then 1 min 00 s measured.")
        #expect(lines.contains { $0.hasPrefix("settling, not measured yet: 0:") })
        #expect(lines.filter { $0.hasPrefix("measuring: ") }.count == 2, "\(lines)")
        let expected = Self.expected(Self.ticks)
        #expect(lines.contains { $0.hasPrefix("ln RMSSD \(String(format: "%.2f", expected.ln)) ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("7-day mean ") && $0.contains("CV ") })
        #expect(lines.contains { $0.hasPrefix("normal range ") && $0.hasSuffix("of the last 60 days") })
        #expect(lines.contains { $0.hasPrefix("verdict: ") })
        #expect(lines.contains { $0.hasPrefix("kept as ") && $0.contains("(UTC+00:00)") })
        #expect(lines.contains { $0.hasPrefix("time zone changed since the last measured day: UTC+09:00 → UTC+00:00") })
    }

    @Test func interruptedKeepsNothing() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let check = try Self.check(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try Self.send(seconds: 20, to: fake, from: Self.ticks)
        check.signal(SIGINT)
        #expect(check.waitForExit(timeout: 10) == 1)
        #expect(check.stderr.contains("stopped before its end; no morning value kept"), "\(check.stderr)")
        #expect(!FileManager.default.fileExists(atPath: check.home + "/data/hrvmon/baseline.json"))
    }
}
