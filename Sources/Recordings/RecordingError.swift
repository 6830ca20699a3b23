/// Why an RR file cannot be read: what is wrong, where, and what to do about it.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file name as the user gave it (`-` for standard input).
    public var source: String
    /// 1-based line, when the problem is on one line.
    public var line: Int?
    public var problem: String
    public var hint: String?

    public init(source: String, line: Int?, problem: String, hint: String? = nil) {
        self.source = source
        self.line = line
        self.problem = problem
        self.hint = hint
    }

    public var description: String {
        let place = line.map { "\(source):\($0)" } ?? source
        return hint.map { "\(place): \(problem)\n  hint: \($0)" } ?? "\(place): \(problem)"
    }
}
