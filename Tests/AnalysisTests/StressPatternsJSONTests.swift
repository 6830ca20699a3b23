import Analysis
import Foundation
import SelfReport
import SessionLog
import TestSupport
import Testing

/// What check-ins and answers reveal, for scripts (`history --patterns --format json`), and the
/// detector's state before an episode, read from the session's metrics lines.
@Suite struct StressPatternsJSONTests {
    @Test func patternsAsJSON() throws {
        let monday = 1_795_392_000.0
        let patterns = StressPatterns(
            sessions: [
                StressPatterns.Session(start: monday + 9 * 3600, utcOffset: 0, episodes: [
                    .init(start: 600, end: 900, answer: .yes), .init(start: 1800, end: 1920, answer: .no, stateBefore: "posture"),
                ]),
            ],
            checkIns: [(monday + 9 * 3600 + 300, CheckIn(mood: .low, doing: "exam", company: "alone", place: "library"))])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(patterns.json.serialized.utf8)) as? [String: Any])
        #expect(object["episodes"] as? Int == 2)
        #expect(object["answers"] as? [String: Int] == ["yes": 1, "no": 1])
        let exam = try #require((object["by_doing"] as? [String: [String: Any]])?["exam"])
        #expect(exam["minutes"] as? Double == 7 && exam["episodes"] as? Int == 2 && exam["confirmed"] as? Int == 1)
        #expect((object["by_weekday_hour"] as? [[String: Any]])?.first?["weekday"] as? String == "Monday")
        let denied = try #require(object["denied"] as? [String: Any])
        #expect(denied["by_state_before"] as? [String: Int] == ["posture": 1])
        #expect(denied["by_part_of_day"] as? [String: Int] == ["in the morning (6–12 h)": 1])
        #expect(denied["mean_minutes"] as? Double == 2)
        #expect(object["confirmed_mean_minutes"] as? Double == 5)
        #expect((object["summary"] as? [String])?.contains { $0.contains("1 of 1 came after five minutes mostly just after a change of posture") } == true)
    }

    @Test func theStateBeforeIsReadFromTheMetricsLines() throws {
        let file = try SessionFileReader.read(Array(SessionFixture(start: 1_763_719_800).text.utf8), source: "fixture.jsonl")
        // The fixture is at rest until its stress episode at 100 s.
        #expect(file.stateBefore(100) == "rest")
        #expect(file.stateBefore(0) == nil, "no metrics before the first beat")
    }
}
