import Foundation
import TestSupport
import Testing

@Suite struct AnalyzeCommandTests {
    let mitbih = Fixture.url("mitbih_nsr_5min.txt").path

    /// An implausible value (5000 ms) is left out, not corrected: it counts under `artifacts.implausible`
    /// and not in `corrected_pct`, which is a share of the usable beats as in the windows.
    @Test func implausibleValuesAreNotCorrections() throws {
        let result = try Hrvmon.run(["analyze", "-", "--format", "json"], stdin: "800\n810\n790\n800\n5000\n800\n")
        let json = try #require(result.json)
        #expect(json["corrected_pct"] as? Double == 0)
        #expect((json["artifacts"] as? [String: Any])?["implausible"] as? Int == 1)
    }

    @Test func jsonContract() throws {
        let result = try Hrvmon.run(["analyze", "--format", "json", mitbih])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 1)  // exactly one object
        let json = try #require(result.json)
        for key in ["beats", "duration_s", "mean_nn_ms", "sdnn_ms", "rmssd_ms", "ln_rmssd", "pnn50_pct",
                    "mean_hr_bpm", "artifacts", "corrected_pct"] {
            #expect(json[key] != nil, "missing \(key)")
        }
        let artifacts = try #require(json["artifacts"] as? [String: Int])
        #expect(Set(artifacts.keys).isSuperset(of: ["ectopic", "missed", "extra", "long_short"]))
        // Missed beats add to the timeline, extra beats leave it.
        #expect(json["beats"] as? Int == 337 + (artifacts["missed"] ?? 0) - (artifacts["extra"] ?? 0))
        // NeuroKit2 corrected: RMSSD 98.41, SDNN 94.64 (Fixtures/mitbih_nsr_5min.reference.json).
        let rmssd = try #require(json["rmssd_ms"] as? Double)
        #expect(abs(rmssd / 98.41304779443871 - 1) < 0.02)
    }

    @Test func noCorrectionEqualsNeuroKitToNineDigits() throws {
        let json = try #require(try Hrvmon.run(["analyze", "--no-correction", "--format", "json", mitbih]).json)
        let expected: [String: Double] = [
            "mean_nn_ms": 888.9554896142433, "sdnn_ms": 95.69035398754956,
            "rmssd_ms": 101.30063401766522, "pnn50_pct": 48.367952522255194,
        ]
        for (key, value) in expected {
            let actual = try #require(json[key] as? Double)
            #expect(abs(actual / value - 1) < 1e-9, "\(key)")
        }
        #expect(json["corrected_pct"] as? Double == 0)
        #expect(json["beats"] as? Int == 337)
    }

    @Test func standardInputAndCSVGiveTheSameNumbers() throws {
        let text = try String(contentsOfFile: mitbih, encoding: .utf8)
        let fromStdin = try Hrvmon.run(["analyze", "--format", "json", "-"], stdin: text).json
        let csv = "time,rr_ms\n" + text.split(separator: "\n").enumerated().map { "\($0.offset),\($0.element)" }.joined(separator: "\n")
        let fromCSV = try Hrvmon.run(["analyze", "--format", "json", try Hrvmon.temporaryFile(csv, name: "x.csv").path]).json
        let fromFile = try Hrvmon.run(["analyze", "--format", "json", mitbih]).json
        for key in ["beats", "rmssd_ms", "sdnn_ms", "pnn50_pct"] {
            #expect("\(fromStdin?[key] ?? "-")" == "\(fromFile?[key] ?? "")")
            #expect("\(fromCSV?[key] ?? "-")" == "\(fromFile?[key] ?? "")")
        }
    }

    /// A Polar Sensor Logger export is read as it is, and a file whose RR column has another name
    /// is read with --column; the output names the column it used.
    @Test func exportsAndChosenColumns() throws {
        let values = [812, 790, 805, 821, 798, 810, 803, 795, 815, 800]
        let polar = try Hrvmon.temporaryFile(
            "Phone timestamp;RR-interval [ms]\n" + values.enumerated().map { "2022-11-23T12:06:\(10 + $0.offset).000;\($0.element)" }.joined(separator: "\n"),
            name: "polar.txt")
        let other = try Hrvmon.temporaryFile(
            "Zeit;Intervall\n" + values.enumerated().map { "\($0.offset);\($0.element),0" }.joined(separator: "\n"), name: "zeit.csv")
        let fromPolar = try Hrvmon.run(["analyze", polar.path])
        #expect(fromPolar.status == 0, "\(fromPolar.stderr)")
        #expect(fromPolar.stdout.contains("10 RR intervals in ms, column RR-interval [ms]"), "\(fromPolar.stdout)")
        let polarJSON = try Hrvmon.run(["analyze", "--format", "json", polar.path]).json
        let refused = try Hrvmon.run(["analyze", other.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--column"), "\(refused.stderr)")
        for column in ["Intervall", "2"] {
            let chosen = try Hrvmon.run(["analyze", "--column", column, "--format", "json", other.path])
            #expect(chosen.status == 0, "\(chosen.stderr)")
            #expect(chosen.json?["rmssd_ms"] as? Double == polarJSON?["rmssd_ms"] as? Double)
            #expect(chosen.json?["rmssd_ms"] != nil)
            #expect(try Hrvmon.run(["analyze", "--column", column, other.path]).stdout.contains("column Intervall"))
        }
        let bad = try Hrvmon.run(["analyze", "--column", "0", other.path])
        #expect(bad.status == 2)
    }

    @Test(arguments: [
        ("800\n810\nfast\n", "input.txt:3: 'fast' is not a number"),
        ("800\n0\n", "input.txt:2: RR interval '0' is not positive"),
        ("800\n-790\n", "input.txt:2: RR interval '-790' is not positive"),
        ("time,hr\n1,60\n", "input.txt:1: no RR column in the header (found: 'time', 'hr')"),
        ("0.8\n0.81\n", "pass --unit s"),
    ])
    func malformedInputExitsTwoNamingTheLine(input: String, message: String) throws {
        let file = try Hrvmon.temporaryFile(input)
        let result = try Hrvmon.run(["analyze", file.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Bytes from the file that a terminal would obey (ESC sequences, BEL, C1 controls, bidi
    /// overrides) are shown escaped in the message, never written raw; control bytes no text
    /// holds (BEL, backspace) make the file binary, said so without echoing it.
    @Test(arguments: [
        ("800\n\u{1B}[2J\u{1B}]0;owned\u{07}\n", #"input.txt:2: binary data, not text (byte 0x07 at byte offset 17)"#),
        ("800\n\u{9B}31m\u{08}\r\n", #"input.txt:2: binary data, not text (byte 0x08 at byte offset 9)"#),
        ("800\n\u{1B}[2J\u{9B}31m\n", #"input.txt:2: '\x1B[2J\u{9B}31m' is not a number"#),
        ("800\n\u{202E}008\n", #"input.txt:2: '\u{202E}008' is not a number"#),
    ])
    func controlBytesInInputAreEscaped(input: String, message: String) throws {
        let file = try Hrvmon.temporaryFile(input)
        let result = try Hrvmon.run(["analyze", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr.debugDescription)")
        let raw = result.stderr.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
        }
        #expect(raw.isEmpty, "\(result.stderr.debugDescription)")
    }

    /// A bad value is named with what is wrong, not as a parse failure or a missing value.
    @Test(arguments: [
        (["--exercise", "480:360"], "--exercise 480:360: the end (360 s) must come after the start (480 s)"),
        (["--series", "--step", "-5"], "--step must be 0 or more seconds, not -5"),
    ])
    func badValuesSayWhatIsWrong(options: [String], message: String) throws {
        let result = try Hrvmon.run(["analyze"] + options + [mitbih])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Two beats still give an RMSSD, but the output says it means nothing yet.
    @Test func tooShortForTheMetricsIsSaid() throws {
        let short = try Hrvmon.run(["analyze", "-"], stdin: "800\n810\n812\n")
        #expect(short.status == 0)
        #expect(short.stdout.contains("Unreliable   RMSSD, SDSD, SD1 and pNN50/pNN20: 2 s of beats, needs at least 1 min 00 s"), "\(short.stdout)")
        #expect(short.stdout.contains("Unreliable   SDNN, CVNN and SD2:"))
        let json = try #require(try Hrvmon.run(["analyze", "--format", "json", "-"], stdin: "800\n810\n812\n").json)
        #expect((json["unreliable"] as? [String])?.contains("rmssd_ms") == true)
        let fiveMinutes = try #require(try Hrvmon.run(["analyze", "--format", "json", mitbih]).json)
        #expect((fiveMinutes["unreliable"] as? [String]) == [])
        #expect(!(try Hrvmon.run(["analyze", mitbih]).stdout.contains("Unreliable")))
    }

    /// A refused option ends the command before it reads its input: with megabytes still coming
    /// on standard input it exits 2 at once (and the harness feeding it survives the broken pipe).
    @Test func badOptionWithLargeInputExitsAtOnce() throws {
        let large = String(repeating: "812\n", count: 2_000_000)
        let result = try Hrvmon.run(["analyze", "--format", "xml", "-"], stdin: large)
        #expect(result.status == 2)
        #expect(result.stderr.contains("xml"))
    }

    @Test func missingFileAndBadOptionsExitTwo() throws {
        let missing = try Hrvmon.run(["analyze", "/nonexistent/rr.txt"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/rr.txt: cannot read: No such file or directory"))
        #expect(try Hrvmon.run(["analyze", "--format", "xml", mitbih]).status == 2)
        #expect(try Hrvmon.run(["analyze", "--rmssd-window", "0", mitbih]).status == 2)
    }

    @Test func seriesAsJSONLinesAndCSV() throws {
        let lines = try Hrvmon.run(["analyze", "--series", "--step", "30", "--format", "json", mitbih]).stdout
            .split(separator: "\n")
        #expect(lines.count == 10)  // 0, 30, …, 270 s
        let rows = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.count == lines.count)
        #expect(rows.allSatisfy { $0["type"] as? String == "window" })
        let times = rows.compactMap { $0["t_s"] as? Double }
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= 29 && $1 - $0 <= 31.5 })
        #expect(rows.last?["filled"] as? Bool == true)
        #expect(rows.last?["rmssd_ms"] is Double)

        let csv = try Hrvmon.run(["analyze", "--series", "--step", "0", "--format", "csv", mitbih]).stdout
            .split(separator: "\n")
        let beats = try #require(try Hrvmon.run(["analyze", "--format", "json", mitbih]).json?["beats"] as? Int)
        #expect(csv.first == "t_s,rr_ms,artifact,hr_bpm,rmssd_ms,ln_rmssd,pnn50_pct,sdnn_ms,corrected_pct,low_quality,filled,state,level")
        #expect(csv.count == 1 + beats)  // a row per corrected beat
    }

    /// `stress_windows` and `activity_windows`: objects with start_s, end_s, peak_level.
    @Test func stressAndActivityWindows() throws {
        let stressTest = try Hrvmon.run(["simulate", "--scenario", "stress-test", "--seed", "3"]).stdout
        let json = try #require(try Hrvmon.run(["analyze", "--format", "json", "-"], stdin: stressTest).json)
        let stress = try #require(json["stress_windows"] as? [[String: Any]])
        #expect(stress.count == 1)
        let start = try #require(stress.first?["start_s"] as? Double)
        let end = try #require(stress.first?["end_s"] as? Double)
        #expect(abs(start - 600) <= 90 && abs(end - 900) <= 120)
        #expect((stress.first?["peak_level"] as? Double ?? 0) > 50)
        #expect((json["activity_windows"] as? [Any])?.isEmpty == true)
        #expect((json["baseline"] as? [String: Any])?["source"] as? String == "session")

        let workout = try Hrvmon.run(["simulate", "--scenario", "workout", "--seed", "3"]).stdout
        let exercise = try #require(try Hrvmon.run(["analyze", "--format", "json", "-"], stdin: workout).json)
        #expect((exercise["stress_windows"] as? [Any])?.isEmpty == true)
        let activity = try #require(exercise["activity_windows"] as? [[String: Any]])
        #expect(activity.count == 1)
        #expect(activity.first?["peak_level"] is NSNull)

        // Each episode says why; the states add up to the recording.
        let reason = try #require(stress.first?["reason"] as? [String: Any])
        #expect((reason["rmssd_change_pct"] as? Double ?? 0) < -20)
        #expect((reason["hr_above_rest_bpm"] as? Double ?? 0) >= 5)
        #expect(reason["breathing_per_min"] is Double)
        let states = try #require(exercise["state_seconds"] as? [String: Double])
        #expect(Set(states.keys) == ["rest", "elevated", "stress", "activity", "recovery", "paced_breathing", "posture", "unknown"])
        #expect(states["activity"] ?? 0 > 500 && states["recovery"] ?? 0 > 60)
        let duration = try #require(exercise["duration_s"] as? Double)
        #expect(abs(states.values.reduce(0, +) - duration) < 2)
    }

    /// Every row agrees with itself: low_quality is the corrected share of the same window above
    /// 5 %, and a stress row always has a level.
    @Test func seriesRowsAreConsistent() throws {
        let recording = try Hrvmon.run(["simulate", "--scenario", "rest:5m,stress:6m,activity:4m,recovery:5m,ectopic=3/min,missed=10,extra=10", "--seed", "5"]).stdout
        let rows = try Hrvmon.run(["analyze", "--series", "--step", "0", "--format", "json", "-"], stdin: recording).stdout
            .split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.count > 1000)
        #expect(rows.contains { $0["low_quality"] as? Bool == true } && rows.contains { $0["low_quality"] as? Bool == false })
        for row in rows {
            let share = try #require(row["corrected_pct"] as? Double)
            #expect(row["low_quality"] as? Bool == (share > 5), "\(row)")
            if row["state"] as? String == "stress" { #expect((row["level"] as? Double ?? 0) > 0, "\(row)") }
        }
        #expect(rows.contains { $0["state"] as? String == "stress" })
    }

    @Test func readableTextSummary() throws {
        let text = try Hrvmon.run(["analyze", mitbih]).stdout
        #expect(text.contains("RMSSD"))
        #expect(text.contains("SDNN"))
        #expect(text.contains("Artifacts"))
        #expect(text.contains("5 min 00 s"))
    }
}

@Suite struct AnalyzeGuidanceTests {
    @Test func suggestionsAndExerciseEffectInJSON() throws {
        let recording = try Hrvmon.run(["simulate", "--scenario", "rest:5m,stress:5m,breathing:5m,rest:3m", "--seed", "2"]).stdout
        let json = try #require(try Hrvmon.run(["analyze", "--format", "json", "--exercise", "600:900", "-"], stdin: recording).json)
        let suggestions = try #require(json["suggestions"] as? [[String: Any]])
        #expect(suggestions.count == 1)
        #expect((suggestions.first?["reason"] as? String)?.contains("% below your reference") == true)
        #expect(suggestions.first?["pattern"] as? String == "resonance")
        let exercise = try #require((json["exercises"] as? [[String: Any]])?.first)
        let before = try #require((exercise["before"] as? [String: Any])?["rmssd_ms"] as? Double)
        let during = try #require((exercise["during"] as? [String: Any])?["rmssd_ms"] as? Double)
        #expect(during > 1.5 * before)
        #expect(try Hrvmon.run(["analyze", "--exercise", "900:600", "-"], stdin: recording).status == 2)
    }
}
