import Dashboard
import Testing

@Suite struct DashboardKeyTests {
    @Test func plainKeysAndControls() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("bq?".utf8)) == [.character("b"), .character("q"), .character("?")])
        #expect(decoder.keys(from: [0x0D, 0x0A, 0x7F, 0x08, 0x0C, 0x15, 0x01]) == [.enter, .enter, .backspace, .backspace, .redraw, .clearLine])
    }

    /// Arrow and function keys never type `[A` into a note; Escape alone is Escape.
    @Test func escapeSequencesAreSwallowed() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("\u{1B}[A\u{1B}[1;5Cx\u{1B}OPy".utf8)) == [.character("x"), .character("y")])
        #expect(decoder.keys(from: [0x1B]) == [.escape])
        #expect(decoder.keys(from: [0x1B, UInt8(ascii: "q")]) == [.escape, .character("q")])
        #expect(decoder.keys(from: Array("\u{1B}[".utf8)) == [])
        #expect(decoder.keys(from: Array("15~n".utf8)) == [.character("n")], "a sequence split across reads")
    }

    /// The Linux console's F1–F5 are `ESC [ [ A` … `ESC [ [ E`: the second `[` is part of the
    /// sequence, so F1 types no `A` into a note.
    @Test func linuxConsoleFunctionKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("\u{1B}[[Ax\u{1B}[[Ey".utf8)) == [.character("x"), .character("y")])
        #expect(decoder.keys(from: Array("\u{1B}[[".utf8)) == [])
        #expect(decoder.keys(from: Array("Cn".utf8)) == [.character("n")], "F3 split across reads")
    }

    @Test func utf8AcrossReads() {
        var decoder = KeyDecoder()
        let cup = Array("☕".utf8)
        #expect(decoder.keys(from: Array(cup.prefix(2))) == [])
        #expect(decoder.keys(from: Array(cup.dropFirst(2)) + Array("é".utf8)) == [.character("☕"), .character("é")])
        #expect(decoder.keys(from: [0x80, UInt8(ascii: "a")]) == [.character("a")], "a stray continuation byte is dropped")
    }
}
