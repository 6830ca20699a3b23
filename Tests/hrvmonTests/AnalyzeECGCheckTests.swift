import Foundation
import SessionLog
import TestSupport
import Testing

/// `analyze` and `report` of a session recorded with `--ecg` (`hrvmon demo --ecg`, whose
/// simulated R peaks are at the true beats) check the strap's RR against the R peaks found in
/// its ECG; the ECG shifted, cut or absent changes what they report as it should.
@Suite struct AnalyzeECGCheckTests {
    /// A 4-minute demo session, with its ECG or without, written to a file of its own.
    static func demoSession(ecg: Bool) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-ecgcheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("session.jsonl").path
        let demo = try Hrvmon.run(
            ["demo", "--speed", "1000", "--duration", "240", "--log", path, "--format", "jsonl"] + (ecg ? ["--ecg"] : []))
        guard demo.status == 0 else { throw DemoFailed(stderr: demo.stderr) }
        return path
    }

    struct DemoFailed: Error {
        var stderr: String
    }

    static let withECG = Result { try demoSession(ecg: true) }

    static func ecgCheck(of path: String) throws -> [String: Any] {
        let analyzed = try Hrvmon.run(["analyze", path, "--format", "json"])
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let json = try #require(analyzed.json)
        return try #require(json["ecg_check"] as? [String: Any], "\(analyzed.stdout)")
    }

    static func number(_ check: [String: Any], _ key: String) throws -> Double {
        try #require((check[key] as? NSNumber)?.doubleValue, "\(key) in \(check)")
    }

    /// The session file with its `ecg` lines changed by `change` (nil drops the line), as a new file.
    static func edited(_ path: String, _ change: (_ line: String, _ start: Double) -> String?) throws -> String {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edited = lines.compactMap { line -> String? in
            guard line.hasPrefix(#"{"type":"ecg","#), let start = Self.start(of: line) else { return line }
            return change(line, start)
        }
        let copy = path + ".edited-\(UUID().uuidString).jsonl"
        try edited.joined(separator: "\n").write(toFile: copy, atomically: true, encoding: .utf8)
        return copy
    }

    /// An `ecg` line's `t`.
    static func start(of line: String) -> Double? {
        guard let range = line.range(of: #""t":[0-9.]+"#, options: .regularExpression) else { return nil }
        return Double(line[range].dropFirst(4))
    }

    @Test func demoSessionAgreesWithItsECG() throws {
        let path = try Self.withECG.get()
        let check = try Self.ecgCheck(of: path)
        let beats = try Self.number(check, "beats")
        #expect(beats > 200)
        #expect(try Self.number(check, "r_peaks") >= beats)
        #expect(try Self.number(check, "matched_pct") >= 99)
        #expect(try Self.number(check, "beats_without_peak") <= 0.01 * beats)
        #expect(try Self.number(check, "peaks_without_beat") <= 0.01 * beats)
        #expect(try Self.number(check, "rr_diff_median_ms") < 1000 / 130, "within a sample period")
        #expect(try Self.number(check, "rr_diff_p95_ms") < 2 * 1000 / 130)
        #expect(try Self.number(check, "rr_compared") > 0.95 * beats)
        #expect(abs(try Self.number(check, "offset_s")) < 2)
        #expect(try Self.number(check, "ecg_s") > 200)

        let text = try Hrvmon.run(["analyze", path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("ECG check"), "\(text.stdout)")
        #expect(text.stdout.contains("without an R peak"))
        #expect(text.stdout.contains("|ΔRR| median"))
    }

    @Test func shiftedECGShowsAsTheOffset() throws {
        let path = try Self.withECG.get()
        let shift = 0.25
        let shifted = try Self.edited(path) { line, start in
            line.replacingOccurrences(of: #""t":[0-9.]+"#, with: #""t":"# + String(format: "%.6f", start + shift), options: .regularExpression)
        }
        let before = try Self.number(try Self.ecgCheck(of: path), "offset_s")
        let check = try Self.ecgCheck(of: shifted)
        // Offset is a beat's time minus its R peak's: R peaks later by `shift` take it off.
        #expect(abs(try Self.number(check, "offset_s") - (before - shift)) < 0.01)
        #expect(try Self.number(check, "matched_pct") >= 99)
    }

    @Test func ecgMissingForAStretchCountsBeatsWithoutAPeak() throws {
        let path = try Self.withECG.get()
        let file = try SessionFileReader.read(Array(try String(contentsOfFile: path, encoding: .utf8).utf8), source: path)
        let first = try #require(file.ecg.first).start
        // The lines that start 60 to 90 s into the ECG; the next line starts where they end.
        let removed = file.ecg.filter { $0.start >= first + 60 && $0.start < first + 90 }
        let cut = try #require(removed.first).start...(try #require(removed.last).time(ofSample: try #require(removed.last).microvolts.count))
        let cutPath = try Self.edited(path) { line, start in start >= first + 60 && start < first + 90 ? nil : line }
        let whole = try Self.ecgCheck(of: path)
        let check = try Self.ecgCheck(of: cutPath)
        let offset = try Self.number(whole, "offset_s")
        let beatsInCut = file.beats.filter { cut.contains($0.time - offset) }.count
        #expect(beatsInCut > 20)
        let added = try Self.number(check, "beats_without_peak") - Self.number(whole, "beats_without_peak")
        // Beats within a QRS of the cut's edges may go either way.
        #expect(abs(added - Double(beatsInCut)) <= 2, "\(added) beats without an R peak added, \(beatsInCut) in the cut")
        #expect(try Self.number(check, "beats") == Self.number(whole, "beats"), "the cut is inside the time both cover")
    }

    @Test func sessionWithoutECGHasNoCheck() throws {
        let path = try Self.demoSession(ecg: false)
        let json = try Hrvmon.run(["analyze", path, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(json.json)
        #expect(object["rmssd_ms"] != nil)
        #expect(object["ecg_check"] == nil)
        let text = try Hrvmon.run(["analyze", path])
        #expect(text.status == 0 && text.stderr.isEmpty, "\(text.stderr)")
        #expect(!text.stdout.contains("ECG"))
        let report = try Hrvmon.run(["report", path, "--output", "-"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(report.stdout.contains("</html>") && !report.stdout.contains("ECG check"))
    }

    @Test func reportShowsTheCheckAsATable() throws {
        let path = try Self.withECG.get()
        let check = try Self.ecgCheck(of: path)
        let report = try Hrvmon.run(["report", path, "--output", "-"])
        #expect(report.status == 0, "\(report.stderr)")
        let page = report.stdout
        let section = try #require(page.range(of: "<h2>ECG check</h2>")).upperBound
        let table = String(page[section...]).components(separatedBy: "</table>")[0]
        #expect(table.contains("Beats without an R peak"))
        #expect(table.contains("R peaks without a beat"))
        #expect(table.contains(String(format: "(%.1f %%)", try Self.number(check, "matched_pct"))), "\(table)")
        #expect(table.contains(String(format: "%.1f ms", try Self.number(check, "rr_diff_median_ms"))), "\(table)")
    }
}
