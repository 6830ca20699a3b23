import Report
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
        let page = SessionPage.render(SessionReport(file: labelled), generated: ReportTests.start + 3600)
        ReportTests.expectWellFormed(page)
        #expect(page.contains("was it stress? no"))
        #expect(!page.contains("was it stress? unanswered"))
        #expect(page.contains("Check-in"))
        #expect(page.contains("mood 2 (low) · exam · library"))
    }
}
