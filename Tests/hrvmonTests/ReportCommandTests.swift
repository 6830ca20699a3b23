import Foundation
import TestSupport
#if canImport(FoundationXML)
import FoundationXML
#endif
import Glibc
import Testing

/// `hrvmon report` end to end: a real session recorded by `monitor` from the fake bluetoothd
/// (rest, stress, rest, a workout and its recovery, ectopic beats; a note; a link loss), reported alone and with a week
/// of days around it, each page rendered in headless Chromium. Screenshots are kept in
/// `.build/test-artifacts`.
@Suite(.serialized) struct ReportCommandTests {
    static let note = "Meeting <script>alert(1)</script> & co"

    /// Records the session; returns the monitor (its home holds the data) and the session id.
    static func recordSession() throws -> (monitor: LiveProcess, id: String) {
        let ticks = try SessionFileTests.simulatedTicks("rest:4m,stress:3m,rest:2m,activity:2m,recovery:2m,ectopic=1/min")
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try MonitorCommandTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let third = ticks.count / 3, twoThirds = 2 * ticks.count / 3
        try MonitorCommandTests.send(Packet.packed(ticks[..<third]), to: fake, expecting: third, in: monitor)
        #expect(sendNote(note, runtime: monitor.home + "/runtime") == 0)
        #expect(monitor.next { $0["type"] as? String == "note" } != nil, "the note was not recorded")
        try MonitorCommandTests.send(Packet.packed(ticks[third..<twoThirds]), to: fake, expecting: twoThirds, in: monitor)
        try fake.drop()
        #expect(monitor.link("connected", timeout: 15) != nil)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        try MonitorCommandTests.send(Packet.packed(ticks[twoThirds...]), to: fake, expecting: ticks.count, in: monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let path = try #require(SessionFileTests.sessionFiles(monitor).first, "no session file: \(monitor.stderr)")
        return (monitor, SessionFileTests.id(path))
    }

    /// What `hrvmon note` will do: one datagram to the running session's socket.
    static func sendNote(_ text: String, runtime: String) -> Int32 {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array((runtime + "/hrvmon/notes.sock").utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        let bytes = Array(text.utf8)
        let sent = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, 0, pointer, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        return sent < 0 ? errno : 0
    }

    static func run(_ arguments: [String], home: String) throws -> LiveProcess {
        let report = try LiveProcess(["report"] + arguments, environment: ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"])
        #expect(report.waitForExit(timeout: 60) == 0, "\(report.stderr)")
        return report
    }

    static func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The page is well-formed XML throughout (so every SVG is), and refers to no URL but the
    /// SVG namespace.
    static func checkSelfContained(_ page: String) {
        let parser = XMLParser(data: Data(page.utf8))
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "") at line \(parser.lineNumber)")
        #expect(occurrences("http:", in: page) + occurrences("https:", in: page) == occurrences("xmlns=\"http://www.w3.org/2000/svg\"", in: page))
        #expect(!page.contains("<script") && !page.contains("src=") && !page.contains("href="))
    }

    static func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func sessionAndDaysReportsRenderInChromium() throws {
        let (monitor, id) = try Self.recordSession()
        let output = monitor.home + "/out"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)

        // One session, by id prefix.
        let sessionPage = output + "/session.html"
        let session = try Self.run([String(id.prefix(11)), "-o", sessionPage], home: monitor.home)
        #expect(session.allLines == [sessionPage])
        #expect(try Self.mode(sessionPage) == 0o600)
        let html = try String(contentsOfFile: sessionPage, encoding: .utf8)
        Self.checkSelfContained(html)
        #expect(html.contains("Meeting &lt;script&gt;alert(1)&lt;/script&gt; &amp; co"))
        // Two charts, each with the stress and the activity episode, the link loss, the note and the baseline band.
        #expect(Self.occurrences("<svg", in: html) == 2)
        #expect(Self.occurrences("class=\"stress\"", in: html) == 2)
        #expect(Self.occurrences("class=\"activity\"", in: html) == 2, "\(html.components(separatedBy: "class=\"activity\"").dropFirst().map { $0.prefix(200) })")
        #expect(Self.occurrences("class=\"gap\"", in: html) == 2)
        // After the workout the charts show recovery (why no stress was flagged there), and the
        // stress episode's title gives its reason.
        #expect(Self.occurrences("class=\"state-recovery\"", in: html) >= 2)
        #expect(html.contains("below your reference of"))
        #expect(Self.occurrences("class=\"note\"", in: html) == 2)
        #expect(Self.occurrences("class=\"band\"", in: html) == 1)
        #expect(Self.occurrences("class=\"artifact\"", in: html) >= 3, "the ectopic beats are marked")
        #expect(html.contains("Polar H10 A1B2C3D4"))

        let rendered = try HeadlessChromium.render(sessionPage, screenshot: HeadlessChromium.artifacts + "/report-session.png", height: 1700)
        Self.checkRendering(rendered, screenshot: HeadlessChromium.artifacts + "/report-session.png", charts: 2, height: 1700)
        try? FileManager.default.removeItem(atPath: HeadlessChromium.artifacts + "/report-session.html")
        try? FileManager.default.copyItem(atPath: sessionPage, toPath: HeadlessChromium.artifacts + "/report-session.html")

        // A week: the session, copies of it on five earlier days at other hours, resting history.
        try Self.addEarlierDays(from: monitor, id: id)
        let daysPath = output + "/days.html"
        let days = try Self.run(["--days", "7", "--output", daysPath], home: monitor.home)
        #expect(days.allLines == [daysPath])
        let daysHTML = try String(contentsOfFile: daysPath, encoding: .utf8)
        Self.checkSelfContained(daysHTML)
        #expect(Self.occurrences("<svg", in: daysHTML) == 5)
        #expect(Self.occurrences("class=\"bar-stress\"", in: daysHTML) == 6)
        #expect(Self.occurrences("class=\"heat-", in: daysHTML) == 7 * 24)
        #expect(Self.occurrences("class=\"dot-ln\"", in: daysHTML) == 7)
        #expect(Self.occurrences("class=\"band\"", in: daysHTML) == 7, "a 60-day normal range on every day")
        #expect(Self.occurrences("class=\"line-week\"", in: daysHTML) == 1, "the 7-day rolling mean")
        #expect(Self.occurrences("<tr>", in: daysHTML) == 1 + 6, "the session table: a heading and six sessions")

        let renderedDays = try HeadlessChromium.render(daysPath, screenshot: HeadlessChromium.artifacts + "/report-days.png", height: 1900)
        Self.checkRendering(renderedDays, screenshot: HeadlessChromium.artifacts + "/report-days.png", charts: 5, height: 1900)
        try? FileManager.default.removeItem(atPath: HeadlessChromium.artifacts + "/report-days.html")
        try? FileManager.default.copyItem(atPath: daysPath, toPath: HeadlessChromium.artifacts + "/report-days.html")
    }

    static func checkRendering(_ page: HeadlessChromium.Page, screenshot: String, charts: Int, height: Int) {
        #expect(page.status == 0, "chromium exited with \(page.status)\n\(page.log.suffix(3000))")
        #expect(page.console.isEmpty, "console: \(page.console)")
        #expect(occurrences("<svg", in: page.dom) == charts, "the DOM Chromium built")
        let size = HeadlessChromium.pngSize(screenshot)
        #expect(size?.width == 1280 && size?.height == height, "screenshot \(screenshot): \(String(describing: size))")
        let bytes = (try? FileManager.default.attributesOfItem(atPath: screenshot)[.size] as? Int) ?? 0
        #expect(bytes > 50_000, "a blank page compresses to a few KB; \(screenshot) has \(bytes) bytes")
    }

    /// Copies of the recorded session moved 1–5 days back (and a few hours), and six days of
    /// resting history before today added with `hrvmon baseline add`.
    static func addEarlierDays(from monitor: LiveProcess, id: String) throws {
        let sessions = monitor.home + "/data/hrvmon/sessions"
        let lines = try SessionFileContent.text(sessions + "/\(id).jsonl.gz").split(separator: "\n")
        let format = DateFormatter()
        format.dateFormat = "yyyyMMdd-HHmmss"
        format.timeZone = .current
        // Other hours of the day, but the same calendar day, whatever the time now. The session
        // itself (back 0) moves an hour earlier when recorded after 23:00: its stress, minutes
        // into it, would otherwise fall after midnight, on a day the report does not show yet.
        let hour = Calendar.current.component(.hour, from: Date())
        for (back, hours) in zip(0...5, [0, 1, -3, 2, -2, 3]) {
            let shift = -Double(back) * 86_400 + Double(min(max(hours, -hour), 22 - hour)) * 3600
            guard back > 0 || shift != 0 else { continue }
            var copy = ""
            var copyID = id
            for line in lines {
                var object = try #require(LiveProcess.parse(String(line)))
                for key in ["t", "recv"] { if let time = object[key] as? Double { object[key] = time + shift } }
                if back > 0, object["type"] as? String == "session" {
                    copyID = format.string(from: Date(timeIntervalSince1970: object["t"] as! Double))
                    object["id"] = copyID
                }
                copy += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
            }
            try copy.write(toFile: sessions + "/\(copyID).jsonl", atomically: true, encoding: .utf8)
        }
        let environment = ["XDG_DATA_HOME": monitor.home + "/data", "XDG_CONFIG_HOME": monitor.home + "/config"]
        for (back, rmssd) in zip(1...6, [44, 38, 47, 41, 50, 43]) {
            let simulate = try LiveProcess(["simulate", "--scenario", "rest:5m:rmssd=\(rmssd)", "--seed", "\(back)"], environment: environment)
            #expect(simulate.waitForExit() == 0)
            let recording = monitor.home + "/rest-\(back).txt"
            try (simulate.allLines.joined(separator: "\n") + "\n").write(toFile: recording, atomically: true, encoding: .utf8)
            let day = Date().addingTimeInterval(-Double(back) * 86_400)
            let dayFormat = DateFormatter()
            dayFormat.dateFormat = "yyyy-MM-dd"
            dayFormat.timeZone = .current
            let added = try LiveProcess(["baseline", "add", recording, "--day", dayFormat.string(from: day)], environment: environment)
            #expect(added.waitForExit() == 0, "\(added.stderr)")
        }
        // Five weeks of morning values before them, so every day of the week has a 60-day range.
        let file = monitor.home + "/data/hrvmon/baseline.json"
        var stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        var measurements = try #require(stored["measurements"] as? [[String: Any]])
        let dayFormat = DateFormatter()
        dayFormat.dateFormat = "yyyy-MM-dd"
        dayFormat.timeZone = .current
        for back in 7...41 {
            let day = dayFormat.string(from: Date().addingTimeInterval(-Double(back) * 86_400))
            measurements.append(["day": day, "ln_rmssd": 3.78 + 0.06 * sin(Double(back)), "resting_hr_bpm": 61, "source": "check", "kind": "check"])
        }
        stored["measurements"] = measurements
        try JSONSerialization.data(withJSONObject: stored).write(to: URL(fileURLWithPath: file))
    }
}
