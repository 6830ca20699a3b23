import Foundation
import TestSupport
import Testing

/// `hrvmon export SESSION --format kubios|edf|bids` on the demo's session file, opened with the
/// reference readers and compared with the session's own lines (as the demo printed them).
@Suite struct ResearchExportTests {
    /// The demo's ten minutes, recorded to a session file in the sessions directory of a home.
    struct Recorded {
        let environment: [String: String]
        let path: String
        let lines: [[String: Any]]

        func of(_ type: String) -> [[String: Any]] { lines.filter { $0["type"] as? String == type } }
    }

    struct DemoFailed: Error {
        let stderr: String
    }

    nonisolated(unsafe) static let recorded: Result<Recorded, Error> = Result {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-research-\(UUID().uuidString)").path
        let environment = ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]
        try FileManager.default.createDirectory(atPath: home + "/data/hrvmon/sessions", withIntermediateDirectories: true)
        let path = home + "/data/hrvmon/sessions/20261125-120000.jsonl"
        let demo = try Hrvmon.run(["demo", "--speed", "1000", "--format", "jsonl", "--log", path], environment: environment)
        guard demo.status == 0 else { throw DemoFailed(stderr: demo.stderr) }
        // Every event's line, as `--format jsonl` prints them: the file keeps packets, not each
        // beat's rr and nn lines.
        let lines = try demo.stdout.split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        return Recorded(environment: environment, path: path, lines: lines)
    }

    func export(_ arguments: [String]) throws -> Hrvmon.Result {
        try Hrvmon.run(["export"] + arguments, environment: try Self.recorded.get().environment)
    }

    func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-research-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func edfHoldsEveryBeatAndEpisode() throws {
        let recorded = try Self.recorded.get()
        let path = try scratch() + "/demo.edf"
        let result = try export([recorded.path, "--format", "edf", "-o", path])
        #expect(result.status == 0 && result.stdout == path + "\n", "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let read = try ReferenceReader.read("edf", path)
        let edflib = read["pyedflib"] as? [String: Any] ?? [:]
        let annotations = (edflib["annotations"] as? [[Any]] ?? []).map { (onset: ($0[0] as! NSNumber).doubleValue, duration: ($0[1] as! NSNumber).doubleValue, text: $0[2] as! String) }
        let received = annotations.filter { $0.text.hasPrefix("RR ") }
        let rr = recorded.of("rr")
        #expect(received.count == rr.count && rr.count > 600)
        #expect(received.map { Double($0.text.dropFirst(3))! } == rr.map { Double($0["rr_1024"] as! Int) * 1000 / 1024 })
        let corrected = annotations.filter { $0.text.hasPrefix("NN ") }
        let nn = recorded.of("nn")
        #expect(corrected.map { String($0.text.split(separator: " ")[2]) } == nn.map { $0["class"] as! String })
        #expect(corrected.map { Double($0.text.split(separator: " ")[1])! } == nn.map { ($0["nn_ms"] as! NSNumber).doubleValue })
        // No gap in the demo: spans on the axis are the session's spans of RR seconds.
        let stress = try #require(recorded.of("stress").first)
        let episode = try #require(annotations.first { $0.text.hasPrefix("stress") })
        let rrSpan = (stress["end_s"] as! Double) - (stress["start_s"] as! Double)
        #expect(abs(episode.duration - rrSpan) < 2e-6)
        let marks = recorded.of("exercise").map { $0["session_s"] as! Double }
        let exercise = try #require(annotations.first { $0.text == "exercise: resonance" })
        #expect(marks.count == 2 && abs(exercise.duration - (marks[1] - marks[0])) < 2e-6)
        #expect(abs(exercise.onset - episode.onset - (marks[0] - (stress["start_s"] as! Double))) < 2e-6)
        let mne = read["mne"] as? [String: Any] ?? [:]
        #expect((mne["annotations"] as? [Any])?.count == annotations.count && mne["sfreq"] as? Double == 4)
    }

    @Test func bidsTreeHoldsEveryBeat() throws {
        let recorded = try Self.recorded.get()
        let root = try scratch() + "/dataset"
        let result = try export(["--session", "20261125", "--format", "bids", "-o", root, "--subject", "S1", "--task", "rest"])
        #expect(result.status == 0, "\(result.stderr)")
        let stem = root + "/sub-S1/ses-20261125120000/beh/sub-S1_ses-20261125120000_task-rest"
        #expect(result.stdout.split(separator: "\n").map(String.init) == [
            root + "/dataset_description.json", stem + "_physio.tsv.gz", stem + "_physio.json", stem + "_events.tsv", stem + "_events.json",
            root + "/sub-S1/ses-20261125120000/sub-S1_ses-20261125120000_scans.tsv",
        ])
        #expect(try FileManager.default.attributesOfItem(atPath: stem + "_physio.tsv.gz")[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: root + "/sub-S1/ses-20261125120000/beh")[.posixPermissions] as? Int == 0o700)
        let bids = try ReferenceReader.read("bids", root)
        let events = bids["events"] as? [String: [Any]] ?? [:]
        let types = events["trial_type"] as? [String] ?? []
        let rows = types.indices.filter { types[$0] == "rr" }
        let rr = recorded.of("rr")
        #expect(rows.map { (events["seq"]![$0] as! NSNumber).intValue } == rr.map { $0["seq"] as! Int })
        #expect(rows.map { (events["rr_1024"]![$0] as! NSNumber).intValue } == rr.map { $0["rr_1024"] as! Int })
        #expect(types.filter { $0 == "nn" }.count == recorded.of("nn").count)
        #expect(types.contains("stress") && types.contains("exercise") && types.contains("suggestion"))
        let physio = bids["physio"] as? [String: [Any]] ?? [:]
        // Ten minutes at 4 Hz, from the whole second before the first interval to the last beat.
        let first = rr[0]["t"] as! Double
        let zero = (first - Double(rr[0]["rr_1024"] as! Int) / 1024).rounded(.down)
        let last = first - zero + Double(rr.dropFirst().reduce(0) { $0 + ($1["rr_1024"] as! Int) }) / 1024
        #expect(physio["rr_ms"]?.count == Int(last.rounded(.up)) * 4 && (2400...2404).contains(physio["rr_ms"]?.count ?? 0))
    }

    /// A valid BIDS dataset by tools hrvmon did not write: bids-validator passes every path,
    /// bidsschematools finds the dataset's description and matches every file to the schema.
    /// A dataset_description.json already there (a study's own) is kept.
    @Test func bidsTreeIsAValidDataset() throws {
        let root = try scratch() + "/dataset"
        #expect(try export(["20261125", "--format", "bids", "-o", root]).status == 0)
        let checked = try ReferenceReader.read("bids-validator", root)
        let paths = checked["paths"] as? [String] ?? []
        #expect(paths.contains("/dataset_description.json") && paths.count == 6, "\(paths)")
        #expect(checked["not_bids"] as? [String] == [] && checked["unmatched"] as? [String] == [], "\(checked)")
        let description = checked["description"] as? [String: Any] ?? [:]
        #expect(description["Name"] as? String == "hrvmon sessions" && description["DatasetType"] as? String == "raw")
        #expect((description["BIDSVersion"] as? String)?.hasPrefix("1.") == true)
        let generator = (description["GeneratedBy"] as? [[String: Any]])?.first
        let version = try Hrvmon.run(["--version"]).stdout.trimmingCharacters(in: .newlines)
        #expect(generator?["Name"] as? String == "hrvmon" && generator?["Version"] as? String == version, "\(description)")

        let study = #"{"Name": "a study", "BIDSVersion": "1.10.0"}"#
        try study.write(toFile: root + "/dataset_description.json", atomically: true, encoding: .utf8)
        let again = try export(["20261125", "--format", "bids", "-o", root, "--subject", "S2"])
        #expect(again.status == 0 && !again.stdout.contains("dataset_description.json"), "\(again.stdout)")
        #expect(try String(contentsOfFile: root + "/dataset_description.json", encoding: .utf8) == study)
    }

    /// Every export says what it wrote: the files on stdout, as `report` and bids name theirs, and
    /// what they hold on stderr; an export to stdout keeps stdout for itself.
    @Test func everyExportSaysWhatItWrote() throws {
        let beats = try Self.recorded.get().of("rr").count
        let directory = try scratch()
        let formats: [(format: String, what: String)] = [
            ("rr", "\(beats) RR intervals as received"), ("csv", "\(beats) beats as received"), ("jsonl", "the session file as recorded"),
            ("kubios", "\(beats) beats as received"), ("edf", "\(beats) beats as received and as corrected, "),
        ]
        for (format, what) in formats {
            let path = directory + "/out." + format
            let written = try export(["20261125", "--format", format, "-o", path])
            #expect(written.status == 0 && written.stdout == path + "\n", "\(format): \(written.stdout)")
            #expect(written.stderr.contains("exported session 20261125-120000 to \(path): \(what)"), "\(format): \(written.stderr)")
        }
        let piped = try export(["20261125", "--format", "rr"])
        #expect(piped.stdout.split(separator: "\n").count == beats && piped.stdout.split(separator: "\n").allSatisfy { Double($0) != nil })
        #expect(piped.stderr == "exported session 20261125-120000 to standard output: \(beats) RR intervals as received\n", "\(piped.stderr)")
    }

    /// SESSION names a session alike in every command that takes one: positionally or with
    /// --session, the same id prefix (delete without --yes and a terminal stops before deleting).
    /// (`sessions` and `history` list sessions and take none.)
    @Test func everyCommandTakesTheSameSession() throws {
        let environment = try Self.recorded.get().environment
        let page = try scratch() + "/page.html"
        let commands: [(arguments: [String], output: String)] = [
            (["report", "20261125", "-o", page], page),
            (["export", "20261125", "--format", "rr"], "exported session 20261125-120000"),
            (["analyze", "20261125"], "session 20261125-120000"),
            (["delete", "20261125"], "refusing to delete session 20261125-120000"),
        ]
        for (arguments, output) in commands {
            // analyze's FILE is positional only: an RR file, a session file or a session.
            let spelled = arguments[0] == "analyze" ? [arguments] : [arguments, [arguments[0], "--session"] + arguments.dropFirst()]
            for named in spelled {
                let result = try Hrvmon.run(named, environment: environment)
                let accepted = arguments[0] == "delete" ? result.status == 2 && result.stderr.contains("without --yes") : result.status == 0
                #expect(accepted && (result.stdout + result.stderr).contains(output), "\(named): \(result.stderr)")
            }
        }
        let twice = try Hrvmon.run(["delete", "20261125", "--session", "20261125"], environment: environment)
        #expect(twice.status == 2 && twice.stderr.contains("name the session once"), "\(twice.stderr)")
    }

    /// SESSION, --session, an id prefix and a path name the same session; kubios goes to stdout.
    @Test func kubiosAndTheWaysToNameASession() throws {
        let recorded = try Self.recorded.get()
        let positional = try export(["20261125-12", "--format", "kubios"])
        #expect(positional.status == 0, "\(positional.stderr)")
        #expect(try export(["--session", recorded.path, "--format", "kubios"]).stdout == positional.stdout)
        let path = try scratch() + "/demo.txt"
        try positional.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let table = try ReferenceReader.read("kubios", path)
        #expect((table["rr_ms"] as? [Double]) == recorded.of("rr").map { Double($0["rr_1024"] as! Int) * 1000 / 1024 })
        // The old formats keep working positionally too.
        #expect(try export([recorded.path, "--format", "rr"]).stdout == (try export(["--session", recorded.path]).stdout))
    }

    @Test func everySessionAtOnce() throws {
        let directory = try scratch() + "/all"
        let edf = try export(["--all", "--format", "edf", "-o", directory])
        #expect(edf.status == 0 && edf.stderr.contains("exported 1 session"), "\(edf.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/20261125-120000.edf"))
        let bids = try export(["--all", "--format", "bids", "-o", directory + "/bids"])
        #expect(bids.status == 0 && FileManager.default.fileExists(atPath: directory + "/bids/sub-01/ses-20261125120000/beh/sub-01_ses-20261125120000_task-hrvmon_events.tsv"))
    }

    /// What cannot be exported says why, with status 2, and writes nothing.
    @Test func badRequestsAreRefused() throws {
        let path = try Self.recorded.get().path
        let cases: [([String], String)] = [
            ([path, "--format", "bids"], "give its root with --output"),
            ([path, "--format", "bids", "-o", "/tmp/x", "--subject", "a-b"], "--subject must be letters and digits"),
            ([path, "--session", path], "name the session once"),
            ([path, "--format", "edf", "--corrected"], "--corrected applies to rr, csv and kubios"),
            ([path, "--all", "-o", "/tmp/x"], "name one SESSION"),
        ]
        for (arguments, message) in cases {
            let result = try export(arguments)
            #expect(result.status == 2 && result.stderr.contains(message) && result.stdout.isEmpty, "\(arguments): \(result.stderr)")
        }
        let empty = try Hrvmon.temporaryFile(
            #"{"type":"session","t":1,"format":"hrvmon-session","version":1,"program":"hrvmon","id":"e","start_local":"-","source":"live"}"# + "\n",
            name: "empty.jsonl")
        let result = try export([empty.path, "--format", "edf"])
        #expect(result.status == 2 && result.stderr.contains("the session has no beats to export"), "\(result.stderr)")
    }
}
