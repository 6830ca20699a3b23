import Foundation
import TestSupport
import Testing

/// `hrvmon stress tune`: the labelled episodes replayed with another threshold, applied only when
/// told, seen and undone in `hrvmon config`.
@Suite struct StressTuneTests {
    @Test func tooFewAnswersSayHowManyMoreAndChangeNothing() throws {
        let (home, environment, _) = try LabelAndDASS21Tests.keptSession(id: "20261127-090000")
        #expect(try Hrvmon.run(["label", "last:1", "no"], environment: environment).status == 0)
        let run = try Hrvmon.run(["stress", "tune"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 stress episode answered yes or no so far; 10 are needed before thresholds are compared: 9 more."), "\(run.stdout)")
        let apply = try Hrvmon.run(["stress", "tune", "--apply", "2"], environment: environment)
        #expect(apply.status == 2)
        #expect(apply.stderr.contains("--apply needs 10 answered episodes"), "\(apply.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/config/hrvmon/config"))
    }

    @Test func replaysTheAnsweredEpisodesAndAppliesOnlyWhenTold() throws {
        let (home, environment) = SelfReportCommandTests.home()
        let sessions = home + "/data/hrvmon/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let path = sessions + "/20261120-080000.jsonl"
        let scenario = "rest:3m," + Array(repeating: "stress:3m,rest:4m", count: 11).joined(separator: ",")
        let demo = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "1000", "--log", path, "--scenario", scenario],
            environment: ["XDG_RUNTIME_DIR": home + "/runtime"])
        #expect(demo.waitForExit(timeout: 60) == 0, "\(demo.stderr)")
        let episodes = try SelfReportCommandTests.lines(path).filter { $0["type"] as? String == "stress" }.count
        try #require(episodes >= 11, "the demo flags each stress period")
        // 6 confirmed, 4 denied, 1 not sure.
        for number in 1...11 {
            let answer = number <= 6 ? "yes" : number <= 10 ? "no" : "unsure"
            let label = try Hrvmon.run(["label", "last:\(number)", answer], environment: environment)
            #expect(label.status == 0, "\(label.stderr)")
        }
        let config = home + "/config/hrvmon/config"

        let shown = try Hrvmon.run(["stress", "tune"], environment: environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("Your answers: 6 confirmed, 4 denied, 1 not sure, in 1 session."), "\(shown.stdout)")
        // The value in use, replayed, flags what the session flagged: every answer where it was.
        let now = try #require(shown.stdout.split(separator: "\n").first { $0.hasPrefix("1.25 (now)") })
        #expect(now.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            == "1.25 (now) 6 of 6 0 of 4 1 of 1 0", "\(shown.stdout)")
        for value in ["1", "1.5", "2", "3"] {
            #expect(shown.stdout.contains("\n" + value + " "), "\(value): \(shown.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: config), "shown, never applied unasked")

        let applied = try Hrvmon.run(["stress", "tune", "--apply", "10"], environment: environment)
        #expect(applied.status == 0, "\(applied.stderr)")
        // At 10 SDs the detector flags none of them.
        let tenRow = try #require(applied.stdout.split(separator: "\n").first { $0.hasPrefix("10 ") })
        #expect(tenRow.split(separator: " ").joined(separator: " ") == "10 0 of 6 4 of 4 0 of 1 0", "\(applied.stdout)")
        #expect(applied.stdout.contains("stress.onset_margin_sd = 10 in \(config) (was 1.25); undo: hrvmon config --reset stress.onset_margin_sd"))
        let written = try String(contentsOfFile: config, encoding: .utf8)
        #expect(written.hasSuffix("stress.onset_margin_sd = 10\n"), "\(written)")
        #expect(written.contains("0 of 6 confirmed episodes kept, 4 of 4 denied dropped."))

        let listed = try Hrvmon.run(["config"], environment: environment)
        #expect(listed.stdout.contains("stress.onset_margin_sd = 10 (default 1.25)\n"), "\(listed.stdout)")
        let reset = try Hrvmon.run(["config", "--reset", "stress.onset_margin_sd"], environment: environment)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "")
        #expect(try Hrvmon.run(["config"], environment: environment).stdout.contains("stress.onset_margin_sd = 1.25\n"))

        let refused = try Hrvmon.run(["stress", "tune", "--apply", "0.5"], environment: environment)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("not below stress.release_margin_sd (1)"), "\(refused.stderr)")
    }

    /// On a terminal the value named is set only after a yes to the question.
    @Test func onATerminalItAsksFirst() throws {
        let (home, environment) = SelfReportCommandTests.home()
        let sessions = home + "/data/hrvmon/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        // Six strong episodes (confirmed) between six milder ones (denied but the last, not sure):
        // a higher threshold drops some of the milder ones, so a value is named.
        let scenario = "rest:4m," + Array(repeating: "stress:3m,rest:5m,stress:3m:rmssd=28:hr=72,rest:5m", count: 6).joined(separator: ",")
        let demo = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "1000", "--log", sessions + "/20261121-090000.jsonl", "--scenario", scenario],
            environment: ["XDG_RUNTIME_DIR": home + "/runtime"])
        #expect(demo.waitForExit(timeout: 60) == 0, "\(demo.stderr)")
        for number in 1...12 {
            let answer = number == 12 ? "unsure" : number % 2 == 1 ? "yes" : "no"
            #expect(try Hrvmon.run(["label", "last:\(number)", answer], environment: environment).status == 0)
        }
        let config = home + "/config/hrvmon/config"
        let terminal = try TmuxTerminal(width: 160, height: 30)
        defer { terminal.close() }
        try terminal.type("XDG_DATA_HOME=\(home)/data XDG_CONFIG_HOME=\(home)/config \(Hrvmon.executable.path) stress tune; echo status=$?")
        var value: Substring?
        #expect(terminal.wait(timeout: 240) { screen in
            value = screen.firstMatch(of: /Set stress.onset_margin_sd to ([0-9.]+)\? \[y\/N\]/)?.output.1
            return value != nil
        })
        #expect(!FileManager.default.fileExists(atPath: config), "nothing is set before the answer")
        try terminal.type("y")
        #expect(terminal.wait { $0.contains("status=0") })
        let written = try String(contentsOfFile: config, encoding: .utf8)
        #expect(written.hasSuffix("stress.onset_margin_sd = \(value ?? "?")\n"), "\(written)")
    }
}
