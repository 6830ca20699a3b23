import Presentation
import Testing

/// CSV fields by code point, as CSV readers split them: a comma or a quote followed by a
/// combining mark is one Swift Character but still a comma or a quote to the reader.
struct CSVFieldTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("a,\u{301}b", "\"a,\u{301}b\""),
        ("\"\u{301}", "\"\"\"\u{301}\""),
        ("\r\n", "\"\r\n\""),
        ("é, ü", "\"é, ü\""),
    ])
    func aFieldIsQuotedWhenItsCodePointsNeedIt(text: String, field: String) {
        #expect(CSV.field(text) == field)
    }
}
