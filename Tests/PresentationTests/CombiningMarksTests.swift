import Presentation
import Testing

/// A character is replaced where it stands alone, as Foundation's `replacingOccurrences` did it.
@Suite struct CombiningMarksTests {
    @Test func everyStandaloneCharacterIsReplaced() {
        #expect(#"say "hi""#.replacingStandalone("\"", with: "\"\"") == #"say ""hi"""#)
        #expect("no_change_needed".replacingStandalone("x", with: "y") == "no_change_needed")
    }

    /// `_` + U+0301 is one character; a joiner (U+200D) or a letter after it is not a mark.
    @Test func aCharacterAMarkFollowsStays() {
        #expect("a_\u{301}_b".replacingStandalone("_", with: "-") == "a_\u{301}-b")
        #expect("_\u{200D}_\u{1F3FB}".replacingStandalone("_", with: "-") == "-\u{200D}_\u{1F3FB}")
    }
}
