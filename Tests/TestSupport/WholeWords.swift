/// Whether the words on a narrow screen are whole: each a word of the same screen drawn where
/// nothing needs cutting, and two words one space apart neighbours there too (a cut "b again"
/// shows as "b a", two words that are each whole).
public enum WholeWords {
    /// The words of a line: what is between spaces and box edges, when it has a letter or digit
    /// (bars and sparklines change length with the width, and are no words).
    static func words(_ line: String) -> [(word: Substring, spaceBefore: Int)] {
        var result: [(Substring, Int)] = []
        var spaces = 0
        var start: String.Index?
        for index in line.indices {
            if " │┌┐└┘─".contains(line[index]) {
                if let first = start {
                    result.append((line[first..<index], spaces))
                    start = nil
                    spaces = 0
                }
                spaces += 1
            } else if start == nil {
                start = index
            }
        }
        if let first = start { result.append((line[first...], spaces)) }
        return result.filter { $0.0.contains { $0.isLetter || $0.isNumber } }
    }

    /// Each cut word or broken pair of `narrow`, with its line; empty when every word is whole.
    public static func cuts(in narrow: [String], of wide: [String]) -> [String] {
        let reference = wide.flatMap { words($0).map(\.word) }
        let known = Set(reference)
        let neighbours = Set(zip(reference, reference.dropFirst()).map { "\($0) \($1)" })
        return narrow.flatMap { line -> [String] in
            let found = words(line)
            let cut = found.filter { !known.contains($0.word) }.map { "'\($0.word)' in '\(line)'" }
            let broken = zip(found, found.dropFirst()).filter { $1.spaceBefore == 1 && !neighbours.contains("\($0.word) \($1.word)") }
                .map { "'\($0.word) \($1.word)' in '\(line)'" }
            return cut + broken
        }
    }
}
