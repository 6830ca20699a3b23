import SelfReport
import Testing

@Suite struct StressPatternsTests {
    /// Monday 2026-11-23 00:00 UTC.
    static let monday = 1_795_392_000.0

    /// Three sessions: Monday 9:00 (two episodes), Monday 20:00 and Wednesday 20:00 (one each),
    /// at UTC+1 so the local hours are one later.
    static func patterns() -> StressPatterns {
        let sessions = [
            StressPatterns.Session(start: monday + 9 * 3600, utcOffset: 3600, episodes: [.init(start: 600, end: 900, answer: .yes), .init(start: 1800, end: 2400, answer: nil)]),
            StressPatterns.Session(start: monday + 20 * 3600, utcOffset: 3600, episodes: [.init(start: 0, end: 120, answer: .no, stateBefore: "recovery")]),
            StressPatterns.Session(start: monday + 2 * 86_400 + 20 * 3600, utcOffset: 3600, episodes: [.init(start: 60, end: 180, answer: .no, stateBefore: "recovery")]),
        ]
        let checkIns: [(time: Double, checkIn: CheckIn)] = [
            (monday + 9 * 3600 + 300, CheckIn(mood: .low, doing: "exam", company: "alone", place: "library")),
            // 40 min before the evening episode: too far to describe it.
            (monday + 20 * 3600 - 2400, CheckIn(mood: .okay, doing: "dinner", company: nil, place: nil)),
            (monday + 2 * 86_400 + 20 * 3600 + 600, CheckIn(mood: .good, doing: "running", company: nil, place: "park")),
        ]
        return StressPatterns(sessions: sessions, checkIns: checkIns)
    }

    @Test func stressByTagHourAndWeekday() {
        let patterns = Self.patterns()
        // The 10:00 and 10:30 episodes are the exam's (the check-in at 10:05 is within 30 min of both).
        #expect(patterns.doing["exam"] == StressPatterns.Tally(minutes: 15, episodes: 2, confirmed: 1))
        #expect(patterns.place["library"]?.minutes == 15)
        #expect(patterns.company["alone"]?.episodes == 2)
        #expect(patterns.doing["dinner"] == nil, "40 minutes away is no context")
        #expect(patterns.doing["running"] == StressPatterns.Tally(minutes: 2, episodes: 1, confirmed: 0))
        #expect(patterns.hourByWeekday[0]?[9] == nil, "hours are local (UTC+1)")
        #expect(patterns.hourByWeekday[0]?[10] == StressPatterns.Tally(minutes: 15, episodes: 2, confirmed: 1))
        #expect(patterns.hourByWeekday[0]?[21]?.episodes == 1)
        #expect(patterns.hourByWeekday[2]?[21]?.minutes == 2)
        #expect(patterns.episodes == 4)
        #expect(patterns.answers == [.yes: 1, .no: 2, nil: 1])
    }

    @Test func inWords() {
        let lines = Self.patterns().lines
        #expect(lines.contains("Stress by doing: exam 15 min (2 episodes, 1 confirmed); running 2 min (1 episode, 0 confirmed)"))
        #expect(lines.contains("Most stress: Monday 10:00–11:00 15 min; Monday 21:00–22:00 2 min; Wednesday 21:00–22:00 2 min"))
        #expect(lines.contains("Was it stress? Of 4 flagged episodes you confirmed 1, denied 2, were not sure of 0 and left 1 unanswered."))
        #expect(lines.contains("The episodes you denied: 2 of 2 in the evening (18–24 h); 2 of 2 came after five minutes mostly recovering from exercise; on average 2 min long (confirmed ones: 5 min)."))
        #expect(StressPatterns(sessions: [], checkIns: []).lines == ["No stress episodes in these days."])
    }

    @Test func weekdaysBeforeTheEpochAndAcrossMidnight() {
        // Sunday 1969-12-28 23:30 UTC at UTC+1 is Monday 00:30 local.
        let patterns = StressPatterns(
            sessions: [StressPatterns.Session(start: -(4 * 86_400) + 23.5 * 3600, utcOffset: 3600, episodes: [.init(start: 0, end: 60, answer: nil)])], checkIns: [])
        #expect(patterns.hourByWeekday[0]?[0]?.episodes == 1)
    }
}
