import Foundation
import TestSupport
import Testing

/// Issue 29's done-when: a generated month of sessions with check-ins and answers, its days
/// report rendered in headless Chromium, the trigger chart's bars checked against the patterns
/// `history --patterns --format json` computes from the same files.
@Suite struct SelfReportMonthTests {
    static let doing = ["exam", "work", "commute", "exam"]
    static let places = ["library", "office", "bus"]
    static let company = ["alone", "friends"]

    /// One demo session (two stress episodes) copied onto each of the 29 days before today at
    /// 9:00–16:00, each with a check-in a minute in and an answer about its first episode.
    static func month(home: String) throws {
        let sessions = home + "/data/hrvmon/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let recorded = home + "/recorded.jsonl"
        let demo = try LiveProcess(
            ["demo", "--format", "jsonl", "--speed", "1000", "--log", recorded, "--scenario", "rest:3m,stress:3m,rest:4m,stress:3m,rest:1m"],
            environment: ["XDG_RUNTIME_DIR": home + "/runtime"])
        #expect(demo.waitForExit(timeout: 60) == 0, "\(demo.stderr)")
        let lines = try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n").map { try #require(LiveProcess.parse(String($0))) }
        let start = try #require(lines.first?["t"] as? Double)
        let firstEpisode = try #require(lines.first { $0["type"] as? String == "stress" }?["start_s"] as? Double)
        let format = DateFormatter()
        format.dateFormat = "yyyyMMdd-HHmmss"
        format.timeZone = .current
        let midnight = Calendar.current.startOfDay(for: Date()).timeIntervalSince1970
        for back in 1...29 {
            let newStart = midnight - Double(back) * 86_400 + Double(9 + back % 8) * 3600
            let shift = newStart - start
            let id = format.string(from: Date(timeIntervalSince1970: newStart))
            var copy = ""
            for var object in lines {
                for key in ["t", "recv"] { if let time = object[key] as? Double { object[key] = time + shift } }
                if object["type"] as? String == "session" { object["id"] = id }
                copy += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
            }
            let checkIn: [String: Any] = [
                "type": "checkin", "t": newStart + 60, "mood": 1 + back % 5, "mood_words": "x",
                "doing": doing[back % doing.count], "where": places[back % places.count], "with": company[back % company.count],
            ]
            let label: [String: Any] = [
                "type": "label", "t": newStart + 7200, "episode": 1, "start_s": firstEpisode, "answer": back % 3 == 0 ? "no" : "yes", "via": "command",
            ]
            for extra in [checkIn, label] { copy += String(decoding: try JSONSerialization.data(withJSONObject: extra), as: UTF8.self) + "\n" }
            try copy.write(toFile: sessions + "/\(id).jsonl", atomically: true, encoding: .utf8)
        }
    }

    @Test func theMonthsTriggerChartShowsThePatterns() throws {
        let (home, environment) = SelfReportCommandTests.home()
        try Self.month(home: home)
        #expect(try Hrvmon.run(["dass21", "--answers", LabelAndDASS21Tests.severeAnswers], environment: environment).status == 0)

        let json = try Hrvmon.run(["history", "--days", "30", "--patterns", "--format", "json"], environment: environment)
        #expect(json.status == 0, "\(json.stderr)")
        let patterns = try #require(LiveProcess.parse(json.stdout.trimmingCharacters(in: .newlines)))
        #expect(patterns["episodes"] as? Int == 58)
        #expect(patterns["answers"] as? [String: Int] == ["yes": 20, "no": 9, "unanswered": 29])
        // Every denied episode's five minutes before were read from its metrics lines.
        let denied = try #require(patterns["denied"] as? [String: Any])
        #expect((denied["by_state_before"] as? [String: Int])?.values.reduce(0, +) == 9, "\(denied)")
        var expected: [String: (minutes: Double, episodes: Int, confirmed: Int)] = [:]
        for (key, question) in [("by_doing", "doing"), ("by_place", "where"), ("by_company", "with")] {
            for (tag, value) in try #require(patterns[key] as? [String: [String: Any]]) {
                expected["\(question) \(tag)"] = (try #require(value["minutes"] as? Double), try #require(value["episodes"] as? Int), try #require(value["confirmed"] as? Int))
            }
        }
        #expect(expected.count == 3 + 3 + 2)

        // history's text: mood by day beside the resting values, the DASS-21 result, the patterns.
        let history = try Hrvmon.run(["history", "--days", "30"], environment: environment)
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("SESSIONS  MOOD (CHECK-INS)"), "\(history.stdout)")
        #expect(history.stdout.contains("DASS-21 over these days (each scale 0–42)"))
        #expect(history.stdout.contains("40 extremely severe"))
        #expect(history.stdout.contains("The episodes you denied: "))
        let csv = try Hrvmon.run(["history", "--patterns", "--format", "csv"], environment: environment)
        #expect(csv.status == 2)
        #expect(csv.stderr.contains("--patterns is text or json, not csv"))

        let page = home + "/month.html"
        let report = try Hrvmon.run(["report", "--days", "30", "--output", page], environment: environment)
        #expect(report.status == 0, "\(report.stderr)")
        let screenshot = HeadlessChromium.artifacts + "/report-month-checkins.png"
        let rendered = try HeadlessChromium.render(page, screenshot: screenshot, height: 3200)
        ReportCommandTests.checkRendering(rendered, screenshot: screenshot, charts: 6, height: 3200)
        try? FileManager.default.removeItem(atPath: HeadlessChromium.artifacts + "/report-month-checkins.html")
        try? FileManager.default.copyItem(atPath: page, toPath: HeadlessChromium.artifacts + "/report-month-checkins.html")

        // The bars in the DOM Chromium built: one per tag, largest first, lengths in proportion.
        let bar = try Regex(#"<rect class="bar-trigger" x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)" height="[0-9.]+"><title>([a-z]+ [a-z]+): (\d+) min of stress, (\d+) episodes?, (\d+) confirmed</title>"#)
        let bars = rendered.dom.matches(of: bar).map { match in
            (tag: String(match.output[2].substring!), width: Double(match.output[1].substring!)!, minutes: Int(match.output[3].substring!)!,
             episodes: Int(match.output[4].substring!)!, confirmed: Int(match.output[5].substring!)!)
        }
        #expect(bars.count == expected.count, "\(rendered.dom.count) characters of DOM")
        let widest = try #require(bars.first)
        let most = try #require(expected[widest.tag]?.minutes)
        for (index, drawn) in bars.enumerated() {
            let want = try #require(expected[drawn.tag], "\(drawn.tag) is no tag of the patterns")
            #expect(drawn.minutes == Int(want.minutes.rounded()), "\(drawn.tag)")
            #expect(drawn.episodes == want.episodes, "\(drawn.tag)")
            #expect(drawn.confirmed == want.confirmed, "\(drawn.tag)")
            #expect(abs(drawn.width / widest.width - want.minutes / most) < 0.01, "\(drawn.tag): \(drawn.width) of \(widest.width)")
            if index > 0 { #expect(drawn.minutes <= bars[index - 1].minutes, "largest first") }
        }
        #expect(rendered.dom.contains("<h2>Mood and resting HRV by day</h2>"))
        #expect(rendered.dom.contains("<h2>DASS-21 over time</h2>"))
    }
}
