import Platform
import Testing

/// Trimming keeps the words Foundation's `trimmingCharacters(in:)` kept (hrvmon used it before).
@Suite struct WhitespaceTests {
    @Test func spacesAreUnicodeSpacesTabAndZeroWidthSpace() {
        #expect(" \t\u{A0}\u{2003}\u{200B}note\u{3000} ".trimming(.spaces) == "note")
        #expect("\nnote\r\n".trimming(.spaces) == "\nnote\r\n")
    }

    @Test func newlinesAreLineBreaksOfEveryKind() {
        #expect("\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029} note \r\n".trimming(.spacesAndNewlines) == "note")
        #expect(" \t\n ".trimming(.spacesAndNewlines) == "")
    }

    /// A combining mark after a space is not space: the space goes, the mark stays.
    @Test func scalarsAreTrimmedOneByOne() {
        #expect(" \u{301}x".trimming(.spaces).unicodeScalars.map(\.value) == [0x301, 0x78])
        #expect("a b".dropFirst().trimming(.spaces) == "b")
    }
}
