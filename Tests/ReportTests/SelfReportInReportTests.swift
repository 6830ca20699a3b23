import Platform
import Report
import SelfReport
import SessionLog
import TestSupport
import Testing

/// The session page lists each stress episode with its answer to "Was that stress?" (or how to
/// give one) and the session's check-ins.
@Suite struct SelfReportInReportTests {
    @Test func episodesCarryTheirAnswersAndCheckInsAreListed() throws {
        let fixture = SessionFixture(start: ReportTests.start)
        let unanswered = SessionPage.render(try ReportTests.report(fixture), generated: ReportTests.start + 3600)
        let file = try SessionFileReader.read(Array(fixture.text.utf8), source: "fixture.jsonl")
        #expect(unanswered.contains("was it stress? unanswered (`hrvmon label \(file.header.id):1 yes|no|unsure`)"))

        let episode = try #require(file.stressEpisodes.first)
        let lines = [
            #"{"type":"checkin","t":\#(ReportTests.start + 60),"mood":2,"mood_words":"low","doing":"exam","where":"library"}"#,
            #"{"type":"label","t":\#(ReportTests.start + 3000),"episode":1,"start_s":\#(episode.start),"answer":"no","via":"command"}"#,
        ]
        let labelled = try SessionFileReader.read(Array((fixture.text + lines.joined(separator: "\n") + "\n").utf8), source: "fixture.jsonl")
        let page = SessionPage.render(SessionReport(file: labelled, ecgCheck: nil), generated: ReportTests.start + 3600)
        ReportTests.expectWellFormed(page)
        #expect(page.contains("was it stress? no"))
        #expect(!page.contains("was it stress? unanswered"))
        #expect(page.contains("Check-in"))
        #expect(page.contains("mood 2 (low) · exam · library"))
    }

    /// The days report says what the answers and check-ins reveal, in words; nothing without an episode.
    @Test func daysReportHasTheSection() throws {
        let fixture = SessionFixture(start: ReportTests.start)
        let file = try SessionFileReader.read(Array(fixture.text.utf8), source: "fixture.jsonl")
        let episode = try #require(file.stressEpisodes.first)
        let lines = [
            #"{"type":"checkin","t":\#(ReportTests.start + 60),"mood":2,"mood_words":"low","doing":"exam","where":"library"}"#,
            #"{"type":"label","t":\#(ReportTests.start + 3000),"episode":1,"start_s":\#(episode.start),"answer":"no","via":"command"}"#,
        ]
        let labelled = try SessionFileReader.read(Array((fixture.text + lines.joined(separator: "\n") + "\n").utf8), source: "fixture.jsonl")
        let today = try #require(CalendarDay(WallClock.day(ReportTests.start)))
        let report = DaysReport(
            sessions: [IndexedSession(key: ReportTests.noKey, file: labelled)], unreadable: [], history: BaselineHistory(), settings: .init(), today: today, count: 7)
        let page = DaysPage.render(report, generated: ReportTests.start + 3600)
        ReportTests.expectWellFormed(page)
        #expect(page.contains("<h2>What your check-ins and answers show</h2>"))
        // The fixture's episode lasts 100 s.
        #expect(page.contains("<li>Stress by doing: exam 2 min (1 episode, 0 confirmed)</li>"))
        #expect(page.contains("Was it stress? Of 1 flagged episode you confirmed 0, denied 1, were not sure of 0 and left 0 unanswered."))
        let empty = DaysPage.render(
            DaysReport(sessions: [], unreadable: [], history: BaselineHistory(), settings: .init(), today: today, count: 7), generated: ReportTests.start)
        #expect(!empty.contains("What your check-ins and answers show"))
    }
}

/// The days report's trigger chart, mood by day beside the resting values, DASS-21 over time.
@Suite struct DaysReportSelfReportTests {
    @Test func triggerChartMoodAndDASS21() throws {
        let fixture = SessionFixture(start: ReportTests.start)
        let file = try SessionFileReader.read(Array(fixture.text.utf8), source: "fixture.jsonl")
        let episode = try #require(file.stressEpisodes.first)
        let label = #"{"type":"label","t":\#(ReportTests.start + 3000),"episode":1,"start_s":\#(episode.start),"answer":"no","via":"command"}"#
        let labelled = try SessionFileReader.read(Array((fixture.text + label + "\n").utf8), source: "fixture.jsonl")
        let today = try #require(CalendarDay(WallClock.day(ReportTests.start)))
        var report = DaysReport(
            sessions: [IndexedSession(key: ReportTests.noKey, file: labelled)], unreadable: [], history: BaselineHistory(), settings: .init(), today: today, count: 7)
        report.statesBefore = [labelled.header.id: [1: "recovery"]]
        // The diary's check-in describes the episode (within 30 minutes), and gives the day a mood.
        report.diary = [(ReportTests.start + 30, CheckIn(mood: .great, doing: "exam", company: nil, place: "library"))]
        report.dass21 = [(DASS21.Result(answers: Array(repeating: 1, count: 21)), ReportTests.start - 86_400)]
        let page = DaysPage.render(report, generated: ReportTests.start + 3600)
        ReportTests.expectWellFormed(page)
        #expect(page.contains(#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 960"#))
        #expect(page.contains("<title>doing exam: 2 min of stress, 1 episode, 0 confirmed</title>"))
        #expect(page.contains("<title>where library: 2 min of stress, 1 episode, 0 confirmed</title>"))
        #expect(page.contains("1 of 1 came after five minutes mostly recovering from exercise"))
        #expect(page.contains("<h2>Mood and resting HRV by day</h2>"))
        #expect(page.contains(#"<td class="number">5.0 (great)</td><td class="number">1</td>"#), "the day's mood and check-ins")
        #expect(page.contains("<h2>DASS-21 over time</h2>"))
        #expect(page.contains(#"<td class="number">14 moderate</td>"#))
        #expect(page.contains(DASS21.notADiagnosis.htmlEscaped))
    }
}
