import Presentation
import Testing

/// Times in the summaries: minutes and seconds, and hours once a recording runs past one (a
/// 24-hour file must not print "1020:00").
@Suite struct FormattingTests {
    @Test(arguments: [(0.0, "0:00"), (59.4, "0:59"), (61, "1:01"), (3599, "59:59"), (3600, "1:00:00"), (61_205, "17:00:05")])
    func clock(seconds: Double, text: String) {
        #expect(Formatting.clock(seconds) == text)
    }

    @Test(arguments: [(42.0, "42 s"), (61, "1 min 01 s"), (3_725, "1 h 02 min 05 s")])
    func duration(seconds: Double, text: String) {
        #expect(Formatting.duration(seconds) == text)
    }
}
