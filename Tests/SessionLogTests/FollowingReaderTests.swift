import SessionLog
import Testing

/// A reader `following` a file still being written (a session sent to a study while it is
/// recorded) reads each whole line as soon as it is fed: in format 2 the newest line is often a
/// notification's `packet` line with nothing after it yet. A line still being written waits, and
/// a last line cut short is still reported when the reader finishes.
@Suite struct FollowingReaderTests {
    static let header = #"{"type":"session","t":1795821615.5,"format":"hrvmon-session","version":2,"program":"hrvmon 0.1.0","id":"20261127-232015","start_local":"2026-11-27T23:20:15+00:00","source":"demo","device":{"name":"hrvmon demo strap","address":"00:00:5E:00:53:01"},"baseline":null,"config":{}}"#
    static let packets = [
        #"{"type":"packet","t":1795821620.25,"hr_bpm":62,"rr_1024":[996]}"#,
        #"{"type":"packet","t":1795821621.5,"hr_bpm":61,"rr_1024":[1001,1003,990]}"#,
        #"{"type":"packet","t":1795821622.5,"hr_bpm":60,"rr_1024":[1024,980]}"#,
    ]

    static func feed(_ text: Substring, to lines: inout SessionFileReader.Lines) throws {
        try Array(text.utf8).withUnsafeBufferPointer { try lines.feed($0) }
    }

    static func beats(_ lines: SessionFileReader.Lines) -> [UInt16] { lines.soFar?.beats.map(\.ticks) ?? [] }

    @Test func eachWholeLineIsReadWhenFed() throws {
        var lines = SessionFileReader.Lines(source: "test", detail: .beats, following: true)
        try Self.feed(Substring(Self.header + "\n" + Self.packets[0] + "\n"), to: &lines)
        #expect(Self.beats(lines) == [996])
        let last = Self.packets[2] + "\n"
        try Self.feed(Substring(Self.packets[1] + "\n") + last.prefix(20), to: &lines)
        #expect(Self.beats(lines) == [996, 1001, 1003, 990], "the line still being written waits")
        try Self.feed(last.dropFirst(20), to: &lines)
        #expect(Self.beats(lines) == [996, 1001, 1003, 990, 1024, 980])
        let file = try lines.finish()
        #expect(file.tornLine == nil)
        #expect(file.beats.map(\.ticks) == [996, 1001, 1003, 990, 1024, 980])
    }

    @Test func aLastLineCutShortIsReportedWhenItFinishes() throws {
        var lines = SessionFileReader.Lines(source: "test", detail: .beats, following: true)
        try Self.feed(Substring(Self.header + "\n" + Self.packets[0] + "\n" + Self.packets[1].prefix(30)), to: &lines)
        #expect(Self.beats(lines) == [996])
        let file = try lines.finish()
        #expect(file.tornLine == 3)
        #expect(file.beats.map(\.ticks) == [996])
    }

    /// Once finished, it has read a whole file (or one cut short) as the reader that waits.
    @Test func itFinishesAsTheReaderThatWaits() throws {
        let whole = SessionLineReadingTests.lines.joined(separator: "\n") + "\n"
        for text in [whole, whole + #"{"type":"rr","t":17952829"#, String(whole.dropLast())] {
            for detail in [SessionFileReader.Detail.full, .beats, .overview] {
                func read(following: Bool) throws -> String {
                    var lines = SessionFileReader.Lines(source: "test", detail: detail, following: following)
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                        try Self.feed(line.offset == 0 ? line.element : "\n" + line.element, to: &lines)
                    }
                    var dumped = ""
                    dump(try lines.finish(), to: &dumped)
                    return dumped
                }
                #expect(try read(following: true) == read(following: false))
            }
        }
    }
}
