import Foundation
import TestSupport
import Testing

@Suite struct SimulateCommandTests {
    /// Simulated ticks survive the trip through text in milliseconds unchanged.
    @Test func rrOutputReadsBackExactly() throws {
        let csv = try Hrvmon.run(["simulate", "--scenario", "rest:3m", "--seed", "4", "--format", "csv"]).stdout
        let ticks = csv.split(separator: "\n").dropFirst().map { Int($0.split(separator: ",")[1])! }
        let rr = try Hrvmon.run(["simulate", "--scenario", "rest:3m", "--seed", "4"]).stdout
        #expect(rr.hasPrefix("# hrvmon simulate --scenario rest:3m --seed 4\n"))
        let asTicks = try Hrvmon.run(["analyze", "--no-correction", "--format", "json", "--unit", "ticks", "-"],
                                     stdin: ticks.map(String.init).joined(separator: "\n")).json
        let asMilliseconds = try Hrvmon.run(["analyze", "--no-correction", "--format", "json", "-"], stdin: rr).json
        #expect(asTicks?["beats"] as? Int == ticks.count)
        for key in ["rmssd_ms", "sdnn_ms", "mean_nn_ms", "pnn50_pct"] {
            #expect((asTicks?[key] as? Double) == (asMilliseconds?[key] as? Double), "\(key)")
        }
    }

    @Test func deterministicPerSeed() throws {
        let first = try Hrvmon.run(["simulate", "--scenario", "stress-test", "--seed", "9"]).stdout
        let again = try Hrvmon.run(["simulate", "--scenario", "stress-test", "--seed", "9"]).stdout
        let other = try Hrvmon.run(["simulate", "--scenario", "stress-test", "--seed", "10"]).stdout
        #expect(first == again)
        #expect(first != other)
    }

    /// Any UInt64 seed, up to the largest, is written back exactly (it once trapped above Int.max).
    @Test func largestSeedInTheTruthFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Hrvmon.run(["simulate", "--scenario", "rest:1m", "--seed", "18446744073709551615", "--truth", path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"seed\":18446744073709551615,"))
    }

    @Test func groundTruthFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("truth-\(UUID().uuidString).json").path
        let result = try Hrvmon.run(["simulate", "--scenario", "demo", "--format", "jsonl", "--truth", path])
        #expect(result.status == 0)
        let truth = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let spans = try #require(truth["spans"] as? [[String: Any]])
        #expect(spans.map { $0["kind"] as? String } == ["rest", "stress", "breathing", "recovery"])
        // What was realised, from the beats themselves: stress raised HR and lowered RMSSD,
        // paced breathing raised RMSSD and SDNN with HR back near rest.
        let hr = spans.compactMap { $0["hr"] as? Double }, rmssd = spans.compactMap { $0["rmssd_ms"] as? Double }
        let sdnn = spans.compactMap { $0["sdnn_ms"] as? Double }
        #expect(hr.count == 4 && rmssd.count == 4 && sdnn.count == 4)
        if hr.count == 4, rmssd.count == 4, sdnn.count == 4 {
            #expect((5...12).contains(hr[1] - hr[0]) && rmssd[1] < 0.8 * rmssd[0])
            #expect(rmssd[2] > rmssd[1] && sdnn[2] > 1.5 * sdnn[0])
        }
        let ectopic = try #require((truth["artifact_beats"] as? [String: [Int]])?["ectopic"])
        let beats = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(ectopic.count == 3)
        #expect(ectopic.allSatisfy { beats[$0]["label"] as? String == "ectopic" })
    }

    @Test func badScenarioExitsTwo() throws {
        let result = try Hrvmon.run(["simulate", "--scenario", "rest:10m,nap:5m"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown segment kind"))
    }
}
