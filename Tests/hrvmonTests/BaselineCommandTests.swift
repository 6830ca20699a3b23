import Foundation
import TestSupport
import Testing

@Suite struct BaselineCommandTests {
    /// A home of its own, shared by the commands of one test.
    let environment: [String: String]
    let dataDirectory: String

    init() {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-baseline-\(UUID().uuidString)").path
        dataDirectory = home + "/data/hrvmon"
        environment = ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
    }

    func run(_ arguments: [String], stdin: String? = nil) throws -> Hrvmon.Result {
        try Hrvmon.run(arguments, stdin: stdin, environment: environment)
    }

    @Test func addShowUseAndReset() throws {
        let empty = try run(["baseline"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("not enough data yet: 0 days of the 3 needed"))

        let today = try #require(try run(["baseline", "--format", "json"]).json)
        #expect(today["days_with_data"] as? Int == 0)
        #expect(today["baseline"] is NSNull)

        let rest = try Hrvmon.run(["simulate", "--scenario", "rest:5m", "--seed", "2"]).stdout
        let file = try Hrvmon.temporaryFile(rest)
        let days = (0..<3).map { offset in
            let date = Date().addingTimeInterval(-Double(offset) * 86_400)
            let parts = Calendar.current.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
        }
        for day in days {
            let added = try run(["baseline", "add", file.path, "--day", day])
            #expect(added.status == 0, "\(added.stderr)")
        }
        let shown = try #require(try run(["baseline", "--format", "json"]).json)
        #expect(shown["days_with_data"] as? Int == 3)
        let baseline = try #require(shown["baseline"] as? [String: Any])
        #expect(abs((baseline["resting_hr_bpm"] as? Double ?? 0) - 62) < 5)

        // Private files in a private directory.
        var info = stat()
        #expect(stat(dataDirectory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(dataDirectory + "/baseline.json", &info) == 0 && info.st_mode & 0o777 == 0o600)

        // analyze now judges against the personal baseline.
        let analysis = try #require(try run(["analyze", "--format", "json", "-"], stdin: rest).json)
        #expect((analysis["baseline"] as? [String: Any])?["source"] as? String == "personal")
        let session = try #require(try run(["analyze", "--baseline", "session", "--format", "json", "-"], stdin: rest).json)
        #expect((session["baseline"] as? [String: Any])?["source"] as? String == "session")

        #expect(try run(["baseline", "reset"]).status == 2)  // no terminal, no --yes
        let reset = try run(["baseline", "reset", "--yes"])
        #expect(reset.status == 0)
        #expect(try run(["baseline"]).stdout.contains("0 days of the 3 needed"))
        #expect(try run(["analyze", "--baseline", "personal", "-"], stdin: rest).status == 2)
    }

    @Test func badInputs() throws {
        let tooShort = try Hrvmon.temporaryFile("800\n810\n790\n")
        let short = try run(["baseline", "add", tooShort.path])
        #expect(short.status == 2)
        #expect(short.stderr.contains("no resting baseline"))
        #expect(try run(["baseline", "add", tooShort.path, "--day", "2026-02-30"]).status == 2)
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        try "{not json".write(toFile: dataDirectory + "/baseline.json", atomically: true, encoding: .utf8)
        let corrupt = try run(["baseline"])
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("not a readable baseline history"))
    }
}
