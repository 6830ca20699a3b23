import Presentation
import Testing

/// `Formatting.wrap` never drops a character, and keeps what is marked unbreakable together.
@Suite struct WrapTests {
    /// A path longer than the line goes alone on its own, whole: the text rejoins as it was.
    @Test func aWordLongerThanTheLineStaysWhole() {
        let path = "/home/someone/.local/share/with-a-long-name/hrvmon/sessions2"
        #expect(path.count == 60)
        let text = "saved as session 20261127-205500 in \(path); `hrvmon sessions` lists it"
        let lines = Formatting.wrap(text, width: 40)
        #expect(lines.joined(separator: " ") == text)
        #expect(lines.contains(path + ";"), "\(lines)")
        #expect(lines.filter { $0.count > 40 } == [path + ";"], "only the path is longer than the line: \(lines)")
        let hung = Formatting.wrap(line: text, width: 40, hanging: 2)
        #expect(hung.map { $0.drop { $0 == " " } }.joined(separator: " ") == text, "\(hung)")
    }

    /// `5 min 00 s` made unbroken moves to the next line whole, written with plain spaces.
    @Test func anUnbrokenQuantityStaysOnOneLine() {
        let text = "4-2-6-2: 4.3 breaths a minute for " + Formatting.unbroken("5 min 00 s")
        #expect(Formatting.wrap(line: text, width: 40, hanging: 2) == ["4-2-6-2: 4.3 breaths a minute for", "  5 min 00 s"])
        #expect(Formatting.wrap(line: text, width: nil, hanging: 2) == ["4-2-6-2: 4.3 breaths a minute for 5 min 00 s"])
    }
}
