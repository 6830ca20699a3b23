import Foundation
import TestSupport
import Testing

/// `analyze FILE --resonance-steps`: a simulated stepped session, written to a file, read back
/// and scored through the binary; bad option values refused with exit status 2.
@Suite struct ResonanceAnalyzeTests {
    static let steps = ["--resonance-steps", "6.5,6,5.5,5,4.5", "--step-minutes", "2"]

    static func recording(_ scenario: String, seed: Int = 2) throws -> String {
        let simulated = try Hrvmon.run(["simulate", "--scenario", scenario, "--seed", String(seed)])
        #expect(simulated.status == 0)
        return try Hrvmon.temporaryFile(simulated.stdout, name: "steps.txt").path
    }

    @Test func jsonNamesTheSubjectsRate() throws {
        let file = try Self.recording("breathing:2m:br=6.5,breathing:2m,breathing:2m:br=5.5,breathing:2m:br=5,breathing:2m:br=4.5,resonance=5")
        let result = try Hrvmon.run(["analyze", file] + Self.steps + ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(result.json)
        #expect(json["rmssd_ms"] != nil)  // the usual summary is still there
        let resonance = try #require(json["resonance"] as? [String: Any])
        #expect(resonance["best_bpm"] as? Double == 5)
        #expect(resonance["clear"] as? Bool == true)
        let steps = try #require(resonance["steps"] as? [[String: Any]])
        #expect(steps.compactMap { $0["bpm"] as? Double } == [6.5, 6, 5.5, 5, 4.5])
        for step in steps {
            for key in ["bpm", "start_s", "hr_amplitude_bpm", "lf_ms2", "lf_peak_hz", "phase_deg", "phase_consistency", "smoothness", "score", "beats", "breaths"] {
                #expect(step[key] is Double || step[key] is Int, "\(key)")
            }
            #expect(step["unreliable"] is NSNull)
        }
        let best = try #require(steps.max { ($0["score"] as? Double ?? 0) < ($1["score"] as? Double ?? 0) })
        #expect(best["bpm"] as? Double == 5)
        let protocolObject = try #require(resonance["protocol"] as? [String: Any])
        #expect(protocolObject["settle_s"] as? Double == 30 && protocolObject["step_s"] as? Double == 120)
    }

    /// Steps that begin after 3 minutes of rest are found with --resonance-start; the text
    /// output carries the table and what was left out.
    @Test func laterStartAndTextTable() throws {
        let file = try Self.recording(
            "rest:3m,breathing:2m:br=6.5,breathing:2m,breathing:2m:br=5.5,breathing:2m:br=5,breathing:2m:br=4.5,resonance=6.5")
        let result = try Hrvmon.run(["analyze", file] + Self.steps + ["--resonance-start", "180"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  Resonance    breathe at 6.5 a minute"))
        #expect(result.stdout.contains("it is the edge of the rates tried"))
        #expect(result.stdout.contains("the first 30 s of each step settle and are not scored"))
        #expect(result.stdout.contains("▶  6.5       3:00"))
    }

    /// A flat subject: no recommendation, said in words and as null.
    @Test func flatSubjectSaysNoClearResonance() throws {
        let file = try Self.recording("breathing:2m:br=6.5,breathing:2m,breathing:2m:br=5.5,breathing:2m:br=5,breathing:2m:br=4.5,resonance=flat")
        let json = try #require(try Hrvmon.run(["analyze", file] + Self.steps + ["--format", "json"]).json)
        let resonance = try #require(json["resonance"] as? [String: Any])
        #expect(resonance["best_bpm"] is NSNull)
        #expect((resonance["reason"] as? String)?.hasPrefix("no clear resonance") == true)
        let text = try Hrvmon.run(["analyze", file] + Self.steps).stdout
        #expect(text.contains("  Resonance    no clear resonance"))
    }

    @Test(arguments: [
        (["--resonance-steps", "6.5,fast"], "--resonance-steps"),
        (["--resonance-steps", "20,6"], "--resonance-steps"),
        (["--resonance-steps", "6"], "needs at least 2 rates"),
        (["--resonance-steps", "6,5", "--step-minutes", "0.5"], "--step-minutes must be 1–10 minutes"),
        (["--resonance-steps", "6,5", "--resonance-start", "-3"], "--resonance-start"),
        (["--resonance-steps", "6,5", "--settle-seconds", "90"], "--settle-seconds must be 0 to half a step (60 s)"),
        (["--step-minutes", "2"], "give it too"),
        (["--resonance-steps", "6,5", "--format", "csv"], "not csv"),
        (["--resonance-steps", "6,5", "--series"], "cannot go with --series"),
    ])
    func badValuesExitTwo(arguments: [String], message: String) throws {
        let result = try Hrvmon.run(["analyze", Fixture.url("mitbih_nsr_5min.txt").path] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
