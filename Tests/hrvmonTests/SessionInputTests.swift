import Foundation
import TestSupport
import Testing

/// Session files that are not what they should be, and the daily history's flags.
@Suite struct SessionInputTests {
    static let header = #"{"type":"session","t":1795000000,"format":"hrvmon-session","version":1,"program":"hrvmon 0.1.0","id":"20261121-101500","start_local":"2026-11-21T10:15:00+00:00","source":"live","device":{"name":"Polar H10","address":"AA:BB:CC:DD:EE:FF"},"baseline":null,"config":{}}"#

    static func beat(_ seq: Int, ticks: Int = 800) -> String {
        #"{"type":"rr","t":\#(1795000000 + seq),"recv":\#(1795000000 + seq),"pkt":\#(seq),"seq":\#(seq),"rr_1024":\#(ticks),"rr_ms":781.25,"hr_bpm":77,"contact":"detected"}"#
    }

    @Test(arguments: [
        ("{\"a\":1}\n", "input.txt:1: not an hrvmon session file"),
        ("{not json\n", "input.txt:1: not an hrvmon session file (not JSON)"),
        (header + "\n" + beat(1) + "\n{oops\n" + beat(3) + "\n", "input.txt:3: damaged line: not JSON"),
        (header + "\n" + beat(1, ticks: 0) + "\n", "input.txt:2: rr_1024 0 is not a strap interval"),
        (header + "\n" + #"{"type":"rr","t":1}"# + "\n", "input.txt:2: \"rr_1024\" must be a whole number"),
        (header.replacingOccurrences(of: "\"version\":1", with: "\"version\":9") + "\n", "input.txt:1: session format version 9 is newer"),
    ])
    func badSessionFilesExitTwoNamingTheLine(contents: String, message: String) throws {
        let file = try Hrvmon.temporaryFile(contents)
        let result = try Hrvmon.run(["analyze", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Unknown record types (a newer hrvmon) are skipped; the beats still count.
    @Test func unknownRecordsAreSkipped() throws {
        let lines = [Self.header, Self.beat(1), #"{"type":"hologram","t":1}"#, Self.beat(2), Self.beat(3)]
        let file = try Hrvmon.temporaryFile(lines.joined(separator: "\n") + "\n")
        let result = try Hrvmon.run(["analyze", "--format", "json", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.json?["raw_beats"] as? Int == 3)
    }

    /// Random damage never crashes the reader: every run exits 0 or 2.
    @Test func damagedFilesNeverCrash() throws {
        let valid = ([Self.header] + (1...30).map { Self.beat($0) }).joined(separator: "\n") + "\n"
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            var bytes = Array(valid.utf8)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let file = try Hrvmon.temporaryFile(String(decoding: bytes, as: UTF8.self))
            let result = try Hrvmon.run(["analyze", file.path])
            #expect(result.status == 0 || result.status == 2, "status \(result.status): \(result.stderr)")
        }
    }

    /// Days outside the normal range of the days before are flagged; the band comes from them.
    @Test func historyFlagsDaysOutsideTheNormalRange() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-history-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home + "/data/hrvmon", withIntermediateDirectories: true)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = .current
        let days = (0..<8).reversed().map { formatter.string(from: calendar.date(byAdding: .day, value: -$0, to: Date())!) }
        let values = [4.00, 4.10, 3.95, 4.05, 4.00, 4.08, 3.98, 3.40]
        let heartRates = [58.0, 59, 57, 58, 60, 58, 59, 67]
        let measurements = zip(days, zip(values, heartRates)).map { day, pair in
            #"{"day":"\#(day)","ln_rmssd":\#(pair.0),"resting_hr_bpm":\#(pair.1),"source":"test"}"#
        }
        try #"{"version":1,"measurements":[\#(measurements.joined(separator: ","))]}"#
            .write(toFile: home + "/data/hrvmon/baseline.json", atomically: true, encoding: .utf8)
        let environment = ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
        let result = try Hrvmon.run(["history", "--days", "8", "--format", "json"], environment: environment)
        let trend = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(trend.count == 8)
        #expect(trend.last?["ln_rmssd_change"] as? String == "below")
        #expect(trend.last?["resting_hr_change"] as? String == "above")
        let earlierFlags = trend.dropLast().compactMap { $0["ln_rmssd_change"] as? String }
        #expect(earlierFlags.isEmpty, "\(earlierFlags)")
        let low = try #require(trend.last?["normal_ln_rmssd_low"] as? Double)
        let high = try #require(trend.last?["normal_ln_rmssd_high"] as? Double)
        #expect(low < 4.0 && high > 4.0 && low > 3.4)
        let text = try Hrvmon.run(["history", "--days", "8"], environment: environment)
        // The text marks ln RMSSD by the long view, which 8 days cannot give yet; JSON keeps the
        // short baseline's flag above.
        #expect(text.stdout.contains("67 bpm ↑") && !text.stdout.contains("↓"), "\(text.stdout)")
        #expect(text.stdout.contains(": resting HR above your usual"))
        #expect(text.stdout.contains("no normal range yet: it needs resting values on 14 of the 60 days before a day"))
        #expect(text.stdout.contains("▁"), "a sparkline: \(text.stdout)")

        // CSV, as --help offers: the JSON keys as columns, one row per day, the same values.
        let csv = try Hrvmon.run(["history", "--days", "8", "--format", "csv"], environment: environment)
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.first?.prefix(10).map { $0 } == ["day", "ln_rmssd", "resting_hr_bpm", "normal_ln_rmssd_low", "normal_ln_rmssd_high",
                               "normal_resting_hr_bpm", "ln_rmssd_change", "resting_hr_change", "stress_min", "sessions"])
        #expect(rows.count == 9)
        #expect(rows.last?[0] == trend.last?["day"] as? String)
        #expect(rows.last.map { Double($0[1]) } == trend.last?["ln_rmssd"] as? Double)
        #expect(rows.last?[6] == "below" && rows.last?[7] == "above")
    }

    /// A data directory holding session files with these names and contents.
    static func sessionsDirectory(_ files: [String: String]) throws -> [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-sessions-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home + "/data/hrvmon/sessions", withIntermediateDirectories: true)
        for (name, contents) in files { try contents.write(toFile: home + "/data/hrvmon/sessions/" + name, atomically: true, encoding: .utf8) }
        return ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
    }

    static var validSession: String { ([header] + (1...5).map { beat($0) }).joined(separator: "\n") + "\n" }

    /// One damaged file (a cut-short header that looks like a beat line) is skipped with a
    /// message; the listing of the others goes on.
    @Test func aDamagedFileIsSkippedByTheListing() throws {
        let environment = try Self.sessionsDirectory([
            "20260101-000000.jsonl": "{\"type\":\"rr\",\"t\":1}\n{\"type",
            "20261121-101500.jsonl": Self.validSession,
        ])
        let listed = try Hrvmon.run(["sessions", "--format", "json"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stderr.contains("skipping") && listed.stderr.contains("20260101-000000.jsonl:1"), "\(listed.stderr)")
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(sessions.map { $0["id"] as? String } == ["20261121-101500"])
        #expect(try Hrvmon.run(["history", "--days", "2"], environment: environment).status == 0)
    }

    /// A session is named by its file: a file copied in under another name is listed and found by it.
    @Test func theFileNameIsTheSessionId() throws {
        let environment = try Self.sessionsDirectory(["big.jsonl": Self.validSession])
        let listed = try Hrvmon.run(["sessions", "--format", "json"], environment: environment)
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
        #expect(sessions.map { $0["id"] as? String } == ["big"])
        let exported = try Hrvmon.run(["export", "--session", "big"], environment: environment)
        #expect(exported.status == 0 && exported.stdout.split(separator: "\n").count == 5, "\(exported.stderr)")
    }

    /// `delete` removes sessions only: a path outside the sessions directory is refused and kept.
    @Test func deleteNeverTakesAPath() throws {
        let environment = try Self.sessionsDirectory(["20261121-101500.jsonl": Self.validSession])
        let precious = try Hrvmon.temporaryFile("keep me\n", name: "precious.txt")
        let result = try Hrvmon.run(["delete", "--session", precious.path, "--yes"], environment: environment)
        #expect(result.status == 2 && result.stderr.contains("not a session id"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: precious.path))
    }

    /// Each command's help says what its SESSION may be: `delete` takes ids only, `report` and
    /// `export` also a session file's path; none speaks of the other commands.
    @Test func eachCommandsHelpSaysWhatItsSessionMayBe() throws {
        for (command, takesPaths) in [("delete", false), ("report", true), ("export", true)] {
            let help = try Hrvmon.run([command, "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            let positional = takesPaths
                ? "<session> Session id, a unique start of one, or a session file's path, as --session."
                : "<session> Session id or a unique start of one, as --session."
            let option = takesPaths
                ? "--session <session> Session id (or a unique start of one), or a session file's path;"
                : "--session <session> Session id (or a unique start of one); see"
            #expect(help.contains(positional) && help.contains(option), "\(command): \(help)")
            #expect(!help.contains("report and export"), "\(command): \(help)")
        }
    }

    /// An empty SESSION (`"$ID"` with ID unset) names no session: as an id prefix it would name
    /// them all. Every command that takes one refuses it, saying what to give, and deletes nothing.
    @Test func anEmptySessionIsRefused() throws {
        let environment = try Self.sessionsDirectory(["20261121-101500.jsonl": Self.validSession])
        let file = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/20261121-101500.jsonl"
        for empty in ["", " \t"] {
            let commands = [
                ["delete", empty, "--yes"], ["delete", "--session", empty, "--yes"], ["report", empty], ["report", "--session", empty],
                ["export", empty], ["export", "--session", empty], ["analyze", empty],
            ]
            for arguments in commands {
                let result = try Hrvmon.run(arguments, environment: environment)
                #expect(result.status == 2 && result.stdout.isEmpty, "\(arguments): \(result.status) \(result.stdout)")
                #expect(result.stderr.contains("SESSION is empty: give a session id; `hrvmon sessions` lists them"), "\(arguments): \(result.stderr)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: file))
    }

    /// `analyze SESSION` names the session's file in what it says, as report and export do: the
    /// line numbers and `head -n` are for that file, not for the id typed.
    @Test func analyzeOfASessionNamesItsFile() throws {
        let environment = try Self.sessionsDirectory([
            "20261121-101500.jsonl": Self.header + "\n" + Self.beat(1) + "\n{oops\n" + Self.beat(3) + "\n",
            "20261122-101500.jsonl": Self.validSession + #"{"type":"rr","t":"#,
        ])
        let sessions = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions/"
        let damaged = try Hrvmon.run(["analyze", "20261121"], environment: environment)
        #expect(damaged.status == 2, "\(damaged.stderr)")
        #expect(damaged.stderr.contains(sessions + "20261121-101500.jsonl:3: damaged line") && damaged.stderr.contains("`head -n 2` recovers them"), "\(damaged.stderr)")
        let torn = try Hrvmon.run(["analyze", "--format", "json", "20261122"], environment: environment)
        #expect(torn.status == 0, "\(torn.stderr)")
        #expect(torn.stderr.contains(sessions + "20261122-101500.jsonl:7: the last line was cut short"), "\(torn.stderr)")
        #expect(torn.json?["source"] as? String == sessions + "20261122-101500.jsonl", "\(torn.stdout)")
    }

    /// A SESSION that names nothing: where paths are taken, neither a file nor a session (with or
    /// without a dot in the name); `delete` takes ids only and says so.
    @Test func aReferenceToNothingSaysWhereItLooked() throws {
        let environment = try Self.sessionsDirectory(["20261121-101500.jsonl": Self.validSession])
        let sessions = environment["XDG_DATA_HOME"]! + "/hrvmon/sessions"
        for arguments in [["analyze", "nosuchfile"], ["analyze", "nosuch.txt"], ["report", "1999"], ["export", "--session", "nosuchfile"]] {
            let result = try Hrvmon.run(arguments, environment: environment)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr.contains("\(arguments.last!): no such file, nor a session of that id in \(sessions); `hrvmon sessions` lists them"),
                "\(arguments): \(result.stderr)")
        }
        let delete = try Hrvmon.run(["delete", "nosuchfile", "--yes"], environment: environment)
        #expect(delete.status == 2 && delete.stderr.contains("no session 'nosuchfile'; `hrvmon sessions` lists them"), "\(delete.stderr)")
    }

    /// A full disk fails the export with the reason and status 1, to a file and to stdout.
    @Test func exportToAFullDiskFails() throws {
        let environment = try Self.sessionsDirectory(["20261121-101500.jsonl": Self.validSession])
        let toFile = try Hrvmon.run(["export", "--session", "20261121", "-o", "/dev/full"], environment: environment)
        #expect(toFile.status == 1 && toFile.stderr.contains("cannot write /dev/full: No space left on device"), "\(toFile.stderr)")
        let toStdout = try Hrvmon.run(["export", "--session", "20261121", "--format", "jsonl"], environment: environment, stdout: "/dev/full")
        #expect(toStdout.status == 1 && toStdout.stderr.contains("cannot write standard output: No space left on device"), "\(toStdout.stderr)")
    }
}
