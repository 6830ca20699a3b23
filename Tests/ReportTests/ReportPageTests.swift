import Foundation
import Platform
import Report
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
import SessionLog
import Testing

/// The report pages from a hand-written session file: what each chart marks, escaping, no
/// outside references, well-formed markup; the timeline and day/hour arithmetic; the command's
/// inputs, outputs and errors.
@Suite struct ReportTests {
    /// 10 minutes past a local hour, so the session's first minutes stay in one hour.
    static let start = LocalTime.hourStart(1_763_719_800) + 600

    static func report(_ fixture: SessionFixture) throws -> SessionReport {
        let bytes = Array(fixture.text.utf8)
        return SessionReport(file: try SessionFileReader.read(bytes, source: "fixture.jsonl"), ecgCheck: nil)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    static func expectWellFormed(_ page: String) {
        let parser = XMLParser(data: Data(page.utf8))
        #expect(parser.parse(), "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "") at line \(parser.lineNumber)")
        #expect(count("http:", in: page) + count("https:", in: page) == count("xmlns=\"http://www.w3.org/2000/svg\"", in: page))
    }

    @Test func sessionPageMarksEverythingOnBothCharts() throws {
        let report = try Self.report(SessionFixture(start: Self.start))
        let page = SessionPage.render(report, generated: Self.start + 3600)
        Self.expectWellFormed(page)
        #expect(Self.count("<svg", in: page) == 2)
        for (name, expected) in [("stress", 2), ("stress-strip", 2), ("activity", 2), ("exercise", 2), ("gap", 2), ("band", 1), ("implausible", 1)] {
            #expect(Self.count("class=\"\(name)\"", in: page) == expected, "\(name)")
        }
        #expect(Self.count("<g class=\"note\">", in: page) == 2)
        #expect(Self.count("class=\"artifact\"", in: page) == 2)
        #expect(page.contains("1 beat corrected (1 ectopic)") && page.contains("1 beat corrected (1 long-short)"))
        // The note is text, never markup.
        #expect(!page.contains("<script"))
        #expect(page.contains("&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; tea"))
        #expect(page.contains("RMSSD 20 → 61 → 45 ms, heart rate 80 → 66 → 63 bpm (the minute before → during → the 2 minutes after); coherence 83 % during"))
        #expect(page.contains("the sensor went out of range"))
        #expect(page.contains("Content-Security-Policy"))
        // Figures are the file's own.
        #expect(page.contains("38.2 ms") && page.contains("60.1 ms") && page.contains("61 bpm"))
        #expect(!page.contains("class=\"warning\""))
    }

    @Test func timelineCountsTheLinkLossOnTheClock() throws {
        let fixture = SessionFixture(start: Self.start)
        let report = try Self.report(fixture)
        let timeline = report.timeline
        #expect(abs(timeline.origin - (Self.start + 5)) < 1e-6)
        #expect(timeline.gaps.count == 1)
        let gap = try #require(timeline.gaps.first)
        #expect(abs(gap.position - 300 * SessionFixture.interval) < 1e-9)
        #expect(abs(gap.length - SessionFixture.gapSeconds) < 1e-6)
        // Before the gap the clock is the RR; after it, the RR plus the gap.
        #expect(abs(timeline.clock(100) - (Self.start + 105)) < 1e-6)
        #expect(abs(timeline.clock(400) - (Self.start + 435)) < 1e-6)
        #expect(abs(timeline.end - fixture.time(ofBeat: SessionFixture.beats - 1)) < 1e-6)
        // A note sits at the last beat before it.
        #expect(report.notes.map(\.seconds) == [161 * SessionFixture.interval])
        #expect(timeline.monitored.count == 2)
        #expect(abs(timeline.monitored.reduce(0) { $0 + $1.end - $1.start } - timeline.length) < 1e-6)
    }

    /// Streamed faster than real time (a replay, a test): packets arrive a millisecond apart and
    /// their beats are back-dated by seconds, so beat times run backwards at each packet; a note
    /// still sits after the packets received before it.
    @Test func noteSitsAfterThePacketsBeforeIt() throws {
        var lines = [#"{"type":"session","t":1000,"format":"hrvmon-session","version":1,"program":"hrvmon 0.1.0","id":"fast","start_local":"","source":"live","device":{},"baseline":null,"config":{}}"#]
        for packet in 0..<3 {
            let received = 1001 + Double(packet) / 1000
            for beat in 0..<3 {
                let time = received - Double(2 - beat) * 1000 / 1024
                lines.append(#"{"type":"rr","t":\#(time),"recv":\#(received),"pkt":\#(packet + 1),"seq":\#(packet * 3 + beat + 1),"rr_1024":1000,"rr_ms":976.5625,"hr_bpm":61,"contact":"detected"}"#)
            }
            if packet == 0 { lines.append(#"{"type":"note","t":\#(received + 0.0005),"text":"after the first packet"}"#) }
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let report = SessionReport(file: try SessionFileReader.read(bytes, source: "fast.jsonl"), ecgCheck: nil)
        #expect(report.notes.map(\.seconds) == [3 * SessionFixture.interval])
        #expect(report.timeline.length == 9 * SessionFixture.interval)
    }

    @Test func sessionThatEndedAbruptlySaysSo() throws {
        let report = try Self.report(SessionFixture(start: Self.start, summary: false, tornTail: true))
        #expect(report.file.tornLine != nil)
        let page = SessionPage.render(report, generated: Self.start + 3600)
        Self.expectWellFormed(page)
        #expect(page.contains("The session ended abruptly"))
        #expect(page.contains("whole-session figures were never written"))
        #expect(page.contains("<div class=\"value\">—</div>"))
    }

    @Test func sessionWithoutBeatsHasNoCharts() throws {
        let header = #"{"type":"session","t":1000,"format":"hrvmon-session","version":1,"program":"hrvmon 0.1.0","id":"empty","start_local":"","source":"live","device":{},"baseline":null,"config":{}}"#
        let file = try SessionFileReader.read(Array((header + "\n").utf8), source: "empty.jsonl")
        let page = SessionPage.render(SessionReport(file: file, ecgCheck: nil), generated: 2000)
        Self.expectWellFormed(page)
        #expect(!page.contains("<svg") && page.contains("No beats were recorded"))
    }

    static let noKey = IndexedSession.Key(path: "", size: 0, modified: 0, changed: 0, fingerprint: "")

    @Test func daysReportPutsStressInItsHour() throws {
        let today = try #require(CalendarDay(WallClock.day(Self.start)))
        let earlier = try Self.report(SessionFixture(id: "earlier", start: Self.start - 2 * 86_400))
        let latest = try Self.report(SessionFixture(start: Self.start))
        let tooOld = try Self.report(SessionFixture(id: "old", start: Self.start - 9 * 86_400))
        var history = BaselineHistory()
        for back in 0..<5 {
            history.record(RestingMeasurement(
                day: CalendarDay(ordinal: today.ordinal - back).text, lnRMSSD: 3.6 + 0.05 * Double(back), restingHR: 60 + Double(back), source: "test"))
        }
        let entries = [tooOld, earlier, latest].map { IndexedSession(key: Self.noKey, file: $0.file) }
        let report = DaysReport(
            sessions: entries, unreadable: [("broken", "line 3: not JSON")], history: history, settings: .init(),
            today: today, count: 7)
        #expect(report.sessions.map(\.id) == ["earlier", "20251121-101000"])
        #expect(report.days.map(\.sessions) == [0, 0, 0, 0, 1, 0, 1])
        let hour = LocalTime.hour(Self.start)
        // The stress episode (100–200 s after the first beat, 5 s after the start) lies in the start's hour.
        #expect(report.hours[6][hour].stressSeconds == 100)
        #expect(report.hours[4][hour].stressSeconds == 100)
        #expect(report.days.map(\.stressSeconds) == [0, 0, 0, 0, 100, 0, 100])
        let monitored = report.hours[6].reduce(0) { $0 + $1.monitoredSeconds }
        #expect(abs(monitored - latest.timeline.length) < 1e-6)
        #expect(report.hours[5].allSatisfy { $0.monitoredSeconds == 0 })
        // History on the last five days; a normal range from its third day on.
        #expect(report.days.map { $0.resting != nil } == [false, false, true, true, true, true, true])
        #expect(report.days.map { $0.baseline != nil } == [false, false, false, false, true, true, true])

        let page = DaysPage.render(report, generated: Self.start + 3600)
        Self.expectWellFormed(page)
        #expect(Self.count("<svg", in: page) == 5)
        #expect(Self.count("class=\"heat-", in: page) == 7 * 24)
        #expect(Self.count("class=\"heat-1\"", in: page) == 2, "100 s of stress: the first step")
        #expect(Self.count("class=\"bar-stress\"", in: page) == 2)
        #expect(Self.count("class=\"bar-sessions\"", in: page) == 2)
        #expect(Self.count("class=\"dot-ln\"", in: page) == 5)
        // Five days are too few for a 60-day normal range; the 7-day mean needs 3 of its days.
        #expect(Self.count("class=\"band\"", in: page) == 0)
        #expect(report.days.map { $0.readiness?.week != nil } == [false, false, false, false, true, true, true])
        #expect(page.contains("needs resting values on 14 of the last 60 days"))
        #expect(page.contains("Session broken could not be read"))
    }

    /// With weeks of history: the normal range on every day, and the days whose 7-day mean left
    /// it ringed, as many as the report's days say.
    @Test func daysReportMarksTheWeeksOutsideTheRange() throws {
        let today = try #require(CalendarDay(WallClock.day(Self.start)))
        var history = BaselineHistory()
        for back in 0..<40 {
            let drop = back < 4 ? 0.5 : 0
            history.record(RestingMeasurement(
                day: CalendarDay(ordinal: today.ordinal - back).text, lnRMSSD: 3.8 + 0.08 * Double(back % 3) - drop, restingHR: 60,
                source: "check", kind: .check))
        }
        let report = DaysReport(sessions: [], unreadable: [], history: history, settings: .init(), today: today, count: 14)
        let marked = report.days.filter { $0.readiness?.change == .below }.count
        #expect(marked >= 2 && report.days.allSatisfy { $0.readiness?.change != .above })
        let page = DaysPage.render(report, generated: Self.start + 3600)
        Self.expectWellFormed(page)
        #expect(Self.count("class=\"band\"", in: page) == 14)
        #expect(Self.count("class=\"mark-below\"", in: page) == marked)
        #expect(Self.count("class=\"line-week\"", in: page) == 1)
    }

    @Test func roundTicks() {
        let (domain, ticks) = NiceTicks.covering(58.3, 93.1, count: 5)
        #expect(domain == 50...100)
        #expect(ticks.map(\.label) == ["50", "60", "70", "80", "90", "100"])
        #expect(NiceTicks.covering(0, 1, count: 4, minimumStep: 1).ticks.map(\.label) == ["0", "1"])
        #expect(NiceTicks.covering(3.42, 3.97, count: 5).ticks.first?.label == "3.4")
        let clock = ClockTicks.ticks(from: Self.start + 7, to: Self.start + 3000, count: 8)
        #expect(clock.map(\.value).allSatisfy { Int($0 + LocalTime.offset(at: $0)) % 600 == 0 }, "whole ten minutes")
        #expect(clock.count == 5)
    }

    @Test func lineSeriesAveragesAndBreaks() {
        let points: [(x: Double, y: Double?)] = [(0, 1), (0.5, 3), (1, 5), (2, nil), (3, 7), (4, 9), (6, 11)]
        let segments = LineSeries.segments(points, breaks: [5], bucket: 1)
        #expect(segments.map { $0.map(\.y) } == [[2, 5], [7, 9], [11]])
    }

    @Test func markupIsEscaped() {
        #expect("<a href=\"x\">Tom & Jerry's</a>".htmlEscaped == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect("bell\u{7}tab\tline\n".htmlEscaped == "bell\u{FFFD}tab\tline\n")
    }

    // MARK: The command

    /// A data directory holding the fixture as a stored session.
    static func home() throws -> (environment: [String: String], directory: URL) {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-report-\(UUID().uuidString)")
        let sessions = home.appendingPathComponent("data/hrvmon/sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
        try SessionFixture(start: start).text.write(to: sessions.appendingPathComponent("20251121-101000.jsonl"), atomically: true, encoding: .utf8)
        return (["XDG_DATA_HOME": home.path + "/data", "XDG_CONFIG_HOME": home.path + "/config"], home)
    }

    @Test func writesThePrivatePageNamedAfterTheSession() throws {
        let (environment, directory) = try Self.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Hrvmon.run(["report", "20251121"], environment: environment, directory: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hrvmon-20251121-101000.html\n")
        let path = directory.appendingPathComponent("hrvmon-20251121-101000.html").path
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        // Written again: replaced whole, no temporary file left behind.
        #expect(try Hrvmon.run(["report", "20251121-101000", "-o", path], environment: environment).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".") } == [])

        let standardOutput = try Hrvmon.run(["report", "--days", "3", "-o", "-"], environment: environment)
        #expect(standardOutput.status == 0)
        #expect(standardOutput.stdout.hasPrefix("<!DOCTYPE html>") && standardOutput.stdout.hasSuffix("</html>\n"))
    }

    @Test(arguments: [
        ([], "give a SESSION"),
        (["20251121", "--days", "3"], "not both"),
        (["--days", "0"], "--days must be 1–366"),
        (["1999"], "1999: no such file, nor a session of that id in "),
        (["/nonexistent/session.jsonl"], "No such file or directory"),
        (["20251121", "-o", "/nonexistent/report.html"], "cannot write the report"),
    ])
    func badInputExitsTwo(arguments: [String], message: String) throws {
        let (environment, directory) = try Self.home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Hrvmon.run(["report"] + arguments, environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func anRRFileIsNotASession() throws {
        let file = try Hrvmon.temporaryFile("800\n810\n", name: "rr.txt")
        let result = try Hrvmon.run(["report", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("rr.txt: an RR recording (2 intervals), not a session"), "\(result.stderr)")
        #expect(result.stderr.contains("hint: `hrvmon analyze \(file.path)`"), "\(result.stderr)")
    }
    @Test func anEmptyFileIsSaidToBeEmpty() throws {
        let result = try Hrvmon.run(["report", "/dev/null"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/dev/null:1: empty file, not an hrvmon session"), "\(result.stderr)")
    }
}
