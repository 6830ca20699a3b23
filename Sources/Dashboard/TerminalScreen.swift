import Platform

/// The terminal while the dashboard owns it: keys arrive one by one without echo (Ctrl-C and
/// Ctrl-Z still signal), on the alternate screen, with the cursor hidden and line wrap off.
/// `restore` gives it back as it was; it is safe to call more than once.
public final class TerminalScreen {
    private var output = FileStream.standardOutput
    /// The settings to restore; nil when stdin is not a terminal.
    private var saved: Terminal.SavedMode?
    public private(set) var isActive = false
    /// The lines on the screen, so a frame writes only the lines that changed.
    private var shown: [String] = []

    public func enter() {
        guard !isActive else { return }
        isActive = true
        saved = Terminal.enterKeyMode()
        output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J")
        output.flush()
        shown = []
    }

    public func restore() {
        guard isActive else { return }
        isActive = false
        output.write("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
        output.flush()
        if let saved { Terminal.restore(saved) }
    }

    public var size: TerminalSize { Terminal.size }

    public func draw(_ lines: [String]) {
        guard isActive else { return }
        for (index, line) in lines.enumerated() where index >= shown.count || shown[index] != line {
            output.write("\u{1B}[\(index + 1);1H\u{1B}[2K" + line)
        }
        if lines.count < shown.count { output.write("\u{1B}[\(lines.count + 1);1H\u{1B}[J") }
        shown = lines
        output.flush()
    }

    /// Clears the screen so the next frame draws every row (after a resize, a resume, Ctrl-L).
    public func invalidate() {
        guard isActive else { return }
        output.write("\u{1B}[2J")
        shown = []
    }

    public func bell() {
        output.write("\u{07}")
        output.flush()
    }
}
