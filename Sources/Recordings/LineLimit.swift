/// The longest line the readers take in. hrvmon writes session lines of a few KB (a note is at
/// most 4 KB) and an RR recording's lines are shorter still: a longer line means the file is
/// something else, and the reader says so rather than gather it in memory without end.
public struct LineLimit: Sendable {
    public static let standard = LineLimit(bytes: 64 << 20)

    public let bytes: Int

    /// A smaller limit lets tests reach it without allocating 64 MiB.
    package init(bytes: Int) {
        self.bytes = bytes
    }

    /// Throws when line `line`, `length` bytes long so far, is beyond the limit.
    package func check(_ length: Int, line: Int, source: String, expected: String) throws(RecordingError) {
        guard length > bytes else { return }
        let size = bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
        throw RecordingError(
            source: source, line: line, problem: "line \(line) is longer than \(size): not \(expected)",
            hint: "check that this is the file you meant")
    }
}
