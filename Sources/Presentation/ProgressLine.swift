import Platform

/// How far a long read has come, on one line of standard error that rewrites itself — only on a
/// terminal, only for inputs big enough to take a while, at most a few times a second, and gone
/// when the work is done.
public struct ProgressLine {
    /// Inputs smaller than this finish before a progress line would be read.
    public static let smallestShown = 32 << 20
    /// Seconds between updates.
    static let interval = 0.25

    private let label: String
    private let total: Int
    private let isShown: Bool
    private var lastShown = 0.0
    private var output = FileStream.standardError

    /// `total`: the bytes there will be (nil: unknown, and nothing is shown).
    public init(_ label: String, total: Int?) {
        self.label = TerminalText.escaped(label)
        self.total = total ?? 0
        isShown = (total ?? 0) >= Self.smallestShown && Terminal.isTerminal(.error)
    }

    public mutating func update(_ done: Int) {
        guard isShown else { return }
        let now = EventLoop.now()
        guard now - lastShown >= Self.interval else { return }
        lastShown = now
        output.write("\r\u{1B}[K" + Self.text(label, done: done, total: total))
        output.flush()
    }

    public mutating func finish() {
        guard isShown, lastShown > 0 else { return }
        output.write("\r\u{1B}[K")
        output.flush()
    }

    /// `reading day.txt: 42 % (84 of 200 MB)`.
    static func text(_ label: String, done: Int, total: Int) -> String {
        let percent = total > 0 ? min(100, done * 100 / total) : 0
        return "\(label): \(percent) % (\(done >> 20) of \(total >> 20) MB)"
    }
}
