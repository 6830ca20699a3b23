import Foundation
import TestSupport
import Testing

/// `hrvmon label` on a kept session and `hrvmon dass21` end to end.
@Suite struct LabelAndDASS21Tests {
    /// A demo session with two stress episodes, kept in the home's sessions directory as `id`.
    static func keptSession(id: String) throws -> (home: String, environment: [String: String], path: String) {
        let (home, environment) = SelfReportCommandTests.home()
        let sessions = home + "/data/hrvmon/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let path = sessions + "/\(id).jsonl"
        let demo = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "1000", "--log", path, "--scenario", "rest:3m,stress:3m,rest:4m,stress:3m,rest:1m"],
            environment: ["XDG_RUNTIME_DIR": home + "/runtime"])
        #expect(demo.waitForExit(timeout: 30) == 0, "\(demo.stderr)")
        return (home, environment, path)
    }

    @Test func labelAppendsToTheSessionFile() throws {
        let (_, environment, path) = try Self.keptSession(id: "20261127-100000")
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let episodes = try SelfReportCommandTests.lines(path).filter { $0["type"] as? String == "stress" }
        #expect(episodes.count == 2)

        let run = try Hrvmon.run(["label", "20261127:2", "YES"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("20261127-100000:2 (stress from "), "\(run.stdout)")
        #expect(run.stdout.hasSuffix(": Yes\n"))
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after.hasPrefix(before), "the file is only appended to")
        let label = try #require(try SelfReportCommandTests.lines(path).last)
        #expect(label["type"] as? String == "label")
        #expect(label["episode"] as? Int == 2)
        #expect(label["answer"] as? String == "yes")
        #expect(label["via"] as? String == "command")
        #expect(label["start_s"] as? Double == episodes[1]["start_s"] as? Double)

        let last = try Hrvmon.run(["label", "last:1", "unsure"], environment: environment)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try SelfReportCommandTests.lines(path).last?["episode"] as? Int == 1)

        let sessions = try Hrvmon.run(["sessions", "--episodes"], environment: environment)
        #expect(sessions.status == 0, "\(sessions.stderr)")
        #expect(sessions.stdout.contains("20261127-100000:1"), "\(sessions.stdout)")
        #expect(sessions.stdout.contains("not sure"))
        #expect(sessions.stdout.contains("20261127-100000:2"))
        #expect(sessions.stdout.contains("yes"))

        // history's section in words: the detector's agreement with the answers.
        let history = try Hrvmon.run(["history"], environment: environment)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("What your check-ins and answers show"), "\(history.stdout)")
        #expect(history.stdout.contains("Was it stress? Of 2 flagged episodes you confirmed 1, denied 0, were not sure of 1 and left 0 unanswered."))
    }

    /// An ended session is kept compressed: the answer goes in as a gzip member of its own, so the
    /// file stays whole gzip (`gzip -t`, `zcat`) and hrvmon reads it with the answer.
    @Test func labelAppendsToACompressedSession() throws {
        let (_, environment, plain) = try Self.keptSession(id: "20261127-100000")
        let gzip = try TestChild.run("/bin/gzip", [plain])
        #expect(gzip.status == 0)
        let path = plain + ".gz"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let run = try Hrvmon.run(["label", "20261127:2", "no"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(before.count) == before, "only appended to")
        #expect(try TestChild.run("/bin/gzip", ["-t", path]).status == 0, "still whole gzip")
        let content = try SessionFileContent.text(path)
        let label = try #require(content.split(separator: "\n").last.flatMap { LiveProcess.parse(String($0)) })
        #expect(label["type"] as? String == "label" && label["answer"] as? String == "no")

        let sessions = try Hrvmon.run(["sessions", "--episodes"], environment: environment)
        #expect(sessions.status == 0, "\(sessions.stderr)")
        #expect(sessions.stdout.contains("20261127-100000:2") && sessions.stdout.contains(" no"), "\(sessions.stdout)")
    }

    @Test func badLabelsAreRefused() throws {
        let (_, environment, path) = try Self.keptSession(id: "20261127-110000")
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let cases: [([String], Int32, String)] = [
            (["label", "20261127-110000:3", "yes"], 2, "session 20261127-110000 has 2 stress episodes; 20261127-110000:3 names none"),
            (["label", "20261127-110000", "yes"], 2, "'20261127-110000' is not an episode: name it SESSION:N"),
            (["label", "20261127-110000:1", "maybe"], 2, "'maybe' is not an answer: yes, no or unsure"),
            (["label", "19990101:1", "no"], 2, "19990101"),
        ]
        for (arguments, status, message) in cases {
            let run = try Hrvmon.run(arguments, environment: environment)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    /// A running session takes its answers on its dashboard and notification: `label` leaves its
    /// file (which the session writes) alone and says so.
    @Test func aRunningSessionIsNotLabelledFromOutside() throws {
        let (home, environment) = SelfReportCommandTests.home()
        let sessions = home + "/data/hrvmon/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: home + "/runtime", withIntermediateDirectories: true)
        let path = sessions + "/20261127-120000.jsonl"
        let demo = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "60", "--log", path, "--scenario", "rest:3m,stress:3m,rest:30m"],
            environment: ["XDG_RUNTIME_DIR": home + "/runtime"])
        defer { demo.signal(SIGINT) }
        #expect(demo.next(timeout: 30) { $0["type"] as? String == "stress" } != nil, "\(demo.stderr)")
        // The file has the episode once its line is written.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, !((try? String(contentsOfFile: path, encoding: .utf8))?.contains(#""type":"stress""#) ?? false) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let run = try Hrvmon.run(["label", "20261127-120000:1", "yes"], environment: environment)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("session 20261127-120000 is still running; answer on its dashboard (s) or in the notification"), "\(run.stderr)")
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).dropFirst(before.count).contains(#""type":"label""#))
    }

    /// Scored by hand (the items' scales as published): depression items 3 5 10 13 16 17 21 rated
    /// 3 3 3 3 3 3 2 = 20 → 40, extremely severe; anxiety 2 4 7 9 15 19 20 rated 1 each = 7 →
    /// 14, moderate; stress 1 6 8 11 12 14 18 rated 0 → 0, normal.
    static let severeAnswers = "0,1,3,1,3,0,1,0,1,3,0,0,3,0,1,3,3,0,1,1,2"

    @Test func dass21ScoresKeepsAndShowsTheTrend() throws {
        let (home, environment) = SelfReportCommandTests.home()
        let json = try Hrvmon.run(["dass21", "--answers", Self.severeAnswers, "--format", "json"], environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(LiveProcess.parse(json.stdout.trimmingCharacters(in: .newlines)))
        #expect(object["depression"] as? Int == 40)
        #expect(object["anxiety"] as? Int == 14)
        #expect(object["stress"] as? Int == 0)
        #expect(object["bands"] as? [String: String] == ["depression": "extremely severe", "anxiety": "moderate", "stress": "normal"])
        let file = home + "/data/hrvmon/dass21.jsonl"
        #expect(try SelfReportCommandTests.permissions(file) == 0o600)
        #expect(try SelfReportCommandTests.lines(file).first?["answers"] as? [Int] == Self.severeAnswers.split(separator: ",").map { Int($0)! })

        let text = try Hrvmon.run(["dass21", "--answers", Array(repeating: "1", count: 21).joined(separator: ",")], environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Depression  14  moderate"), "\(text.stdout)")
        #expect(text.stdout.contains("Stress      14  normal"))
        #expect(text.stdout.contains("they are not a diagnosis"))
        #expect(!text.stdout.contains("crisis"), "no severe score, no crisis lines")
        #expect(text.stdout.contains("Lovibond, S.H. & Lovibond, P.F. (1995)"))
        let severe = try Hrvmon.run(["dass21", "--answers", Self.severeAnswers], environment: environment)
        #expect(severe.stdout.contains("findahelpline.com"), "a severe score says where to find help")

        let history = try Hrvmon.run(["dass21", "--history", "--format", "json"], environment: environment)
        let results = try #require((try? JSONSerialization.jsonObject(with: Data(history.stdout.utf8))) as? [[String: Any]])
        #expect(results.map { $0["depression"] as? Int } == [40, 14, 40])
        #expect(results.allSatisfy { ($0["date"] as? String)?.count == 10 })
        let table = try Hrvmon.run(["dass21", "--history"], environment: environment)
        #expect(table.stdout.hasPrefix("date        depression           anxiety      stress\n"), "\(table.stdout)")

        let due = try Hrvmon.run(["dass21", "--due", "14"], environment: environment)
        #expect(due.status == 1, "taken today: not due")
        #expect(due.stdout.hasPrefix("not due: last taken "))
        let fresh = try Hrvmon.run(["dass21", "--due", "14"], environment: SelfReportCommandTests.home().environment)
        #expect(fresh.status == 0)
        #expect(fresh.stdout.hasPrefix("the DASS-21 is due"))
    }

    @Test(arguments: [
        (["dass21", "--answers", "0,1,2"], "--answers: 3 answers given; the DASS-21 has 21, one per item in order"),
        (["dass21", "--answers", "0,1,2,3,4" + String(repeating: ",0", count: 16)], "--answers: answer 5 is '4', not a rating 0, 1, 2 or 3"),
        (["dass21", "--due", "7"], "--due 7: the DASS-21 is taken every 14 to 28 days"),
        (["dass21", "--history", "--answers", Array(repeating: "0", count: 21).joined(separator: ",")], "choose one of --answers, --history and --due"),
    ])
    func badDASS21InputIsRefused(arguments: [String], message: String) throws {
        let (home, environment) = SelfReportCommandTests.home()
        let run = try Hrvmon.run(arguments, environment: environment)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home + "/data/hrvmon/dass21.jsonl"))
    }

    /// Asked on the terminal: instruction, scale, the items in order, a bad rating asked again.
    @Test func dass21Asks() throws {
        let (_, environment) = SelfReportCommandTests.home()
        let answers = Self.severeAnswers.split(separator: ",").map(String.init)
        let run = try Hrvmon.run(["dass21"], stdin: (["7"] + answers).joined(separator: "\n") + "\n", environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Please read each statement and choose a number 0, 1, 2 or 3"))
        #expect(run.stdout.contains("  3  Applied to me very much, or most of the time"))
        #expect(run.stdout.contains("1. I found it hard to wind down  [0–3]:   0, 1, 2 or 3\n1. I found it hard to wind down"))
        #expect(run.stdout.contains("21. I felt that life was meaningless  [0–3]: "))
        #expect(run.stdout.contains("Depression  40  extremely severe"))
        let short = try Hrvmon.run(["dass21"], stdin: "1\n2\n", environment: environment)
        #expect(short.status == 2)
        #expect(short.stderr.contains("input ended after 2 of 21"))
    }
}
