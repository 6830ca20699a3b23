import Foundation
import TestSupport
import Testing

/// `hrvmon resonance --demo` end to end: the stepped pacer on the simulated strap, the table,
/// the session file that carries its own steps, and `breathe` taking a kept result.
@Suite struct ResonanceCommandTests {
    static func demo(_ extra: [String], environment: [String: String] = [:]) throws -> Hrvmon.Result {
        try Hrvmon.run(["resonance", "--demo", "--speed", "500", "--no-dashboard", "--lead-in", "30"] + extra, environment: environment)
    }

    /// A subject resonating at 6 a minute: recommended, with the table; the demo keeps nothing;
    /// the session file's replay finds its steps by itself and agrees.
    @Test func demoRecommendsTheSubjectsRateAndItsFileReplays() throws {
        let home = Hrvmon.freshHome()
        let log = home + "-session.jsonl"
        let result = try Self.demo(["--subject-resonance", "6", "--seed", "3", "--log", log], environment: ["XDG_DATA_HOME": home + "/data"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.firstIndex { $0.hasPrefix("Resonance assessment: ") })
        #expect(lines[verdict].hasPrefix("Resonance assessment: breathe at 6.0 a minute: the highest score"))
        #expect(lines[verdict + 1].contains("5 steps of 2 min 00 s from 0:30, each starting with an inhale (in:out 4:6)"))
        #expect(lines[verdict + 2].split(separator: " ").prefix(4) == ["rate/min", "from", "HR", "swing"])
        #expect(lines[verdict + 4].hasPrefix("  ▶  6.0"))
        #expect(lines.last == "(demo: nothing is kept)")
        #expect(!FileManager.default.fileExists(atPath: home + "/data/hrvmon/resonance.json"))
        // The running swing of each step, as its breaths complete.
        #expect(lines.contains { $0.contains("step 3 at 5.5 a minute: HR swing") })

        let session = try String(contentsOfFile: log, encoding: .utf8)
        #expect(session.split(separator: "\n").filter { $0.contains(#""type":"resonance_step""#) }.count == 6)
        let replay = try #require(try Hrvmon.run(["analyze", log, "--format", "json"]).json)
        let resonance = try #require(replay["resonance"] as? [String: Any])
        #expect(resonance["best_bpm"] as? Double == 6)
        let starts = try #require((resonance["steps"] as? [[String: Any]])?.compactMap { $0["start_s"] as? Double })
        // Placed on the RR timeline within the strap's batching of a second.
        for (index, start) in starts.enumerated() { #expect(abs(start - (30 + 120 * Double(index))) < 1) }
    }

    @Test func flatSubjectHasNoClearResonance() throws {
        let result = try Self.demo(["--subject-resonance", "flat", "--format", "jsonl"])
        #expect(result.status == 0, "\(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "resonance")
        #expect(object["stored"] as? Bool == false)
        let inner = try #require(object["result"] as? [String: Any])
        #expect(inner["best_bpm"] is NSNull)
        #expect((inner["reason"] as? String)?.hasPrefix("no clear resonance") == true)
    }

    /// A kept assessment sets the resonance pattern's rate of `breathe`, which says so; --rate
    /// still wins; a damaged file is refused with status 2.
    @Test func breatheTakesTheKeptRate() throws {
        let data = Hrvmon.freshHome() + "/data"
        try FileManager.default.createDirectory(atPath: data + "/hrvmon", withIntermediateDirectories: true)
        let stored = #"{"best_bpm":5.5,"contrast":1.5,"date":"2026-11-20","session":null,"steps":[]}"#
        try stored.write(toFile: data + "/hrvmon/resonance.json", atomically: true, encoding: .utf8)
        let environment = ["XDG_DATA_HOME": data]
        let kept = try Hrvmon.run(["breathe", "--minutes", "0.25", "--speed", "60"], environment: environment)
        #expect(kept.stdout.hasPrefix("resonance: 5.5 breaths a minute for 15 s (your resonance assessment of 2026-11-20; --rate overrides)\n0:00 inhale 4.4 s\n"))
        let given = try Hrvmon.run(["breathe", "--rate", "6", "--minutes", "0.25", "--speed", "60"], environment: environment)
        #expect(given.stdout.hasPrefix("resonance: 6.0 breaths a minute for 15 s\n"))
        try #"{"best_bpm":40}"#.write(toFile: data + "/hrvmon/resonance.json", atomically: true, encoding: .utf8)
        let damaged = try Hrvmon.run(["breathe", "--minutes", "0.25", "--speed", "60"], environment: environment)
        #expect(damaged.status == 2)
        #expect(damaged.stderr.contains("resonance.json: not a readable resonance assessment"))
    }

    @Test(arguments: [
        (["--demo", "--subject-resonance", "2"], "--subject-resonance must be breaths a minute from 3 to 12"),
        (["--demo", "--lead-in", "5"], "--lead-in must be 10–600 seconds"),
        (["--speed", "3"], "--speed, --seed and --subject-resonance are for --demo"),
        (["--demo", "--resonance-steps", "6"], "needs at least 2 rates"),
        (["--demo", "--step-minutes", "20"], "--step-minutes must be 1–10 minutes"),
    ])
    func badValuesExitTwo(arguments: [String], message: String) throws {
        let result = try Hrvmon.run(["resonance"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
