import Glibc

/// The terminal while the dashboard owns it: keys arrive one by one without echo (Ctrl-C and
/// Ctrl-Z still signal), on the alternate screen, with the cursor hidden and line wrap off.
/// `restore` gives it back as it was; it is safe to call more than once.
final class TerminalScreen {
    private var output = FileStream.standardOutput
    /// The settings to restore; nil when stdin is not a terminal.
    private var saved: termios?
    private(set) var isActive = false
    /// The lines on the screen, so a frame writes only the lines that changed.
    private var shown: [String] = []

    func enter() {
        guard !isActive else { return }
        isActive = true
        var settings = termios()
        if isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 {
            saved = settings
            settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
            // Ctrl-S must not freeze the screen, and Enter arrives as CR whatever the tty does.
            settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
            withUnsafeMutableBytes(of: &settings.c_cc) { controls in
                controls[Int(VMIN)] = 1
                controls[Int(VTIME)] = 0
            }
            tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        }
        output.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J")
        output.flush()
        shown = []
    }

    func restore() {
        guard isActive else { return }
        isActive = false
        output.write("\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l")
        output.flush()
        if var saved { tcsetattr(STDIN_FILENO, TCSADRAIN, &saved) }
    }

    /// The terminal's size now; 80×24 when it cannot tell.
    var size: TerminalSize {
        var window = winsize()
        let known = withUnsafeMutablePointer(to: &window) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) } == 0
        guard known, window.ws_row > 0, window.ws_col > 0 else { return TerminalSize(rows: 24, columns: 80) }
        return TerminalSize(rows: Int(window.ws_row), columns: Int(window.ws_col))
    }

    /// Shows `lines`, one per row from the top, writing only rows that differ from the last frame.
    func draw(_ lines: [String]) {
        guard isActive else { return }
        for (index, line) in lines.enumerated() where index >= shown.count || shown[index] != line {
            output.write("\u{1B}[\(index + 1);1H\u{1B}[2K" + line)
        }
        if lines.count < shown.count { output.write("\u{1B}[\(lines.count + 1);1H\u{1B}[J") }
        shown = lines
        output.flush()
    }

    /// Clears the screen so the next frame draws every row (after a resize, a resume, Ctrl-L).
    func invalidate() {
        guard isActive else { return }
        output.write("\u{1B}[2J")
        shown = []
    }

    func bell() {
        output.write("\u{07}")
        output.flush()
    }
}
