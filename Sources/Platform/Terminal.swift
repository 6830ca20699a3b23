import Glibc

/// The controlling terminal, as far as a full-screen program needs it: whether a standard stream
/// is one, its size, and raw key input (no line editing, no echo) that is put back on exit.
public enum Terminal {
    public enum Stream: Int32 {
        case input = 0, output = 1, error = 2
    }

    public static func isTerminal(_ stream: Stream) -> Bool { isatty(stream.rawValue) == 1 }

    /// Rows and columns of the terminal on standard output; 24×80 when it does not say.
    public static var size: TerminalSize {
        var window = winsize()
        let known = withUnsafeMutablePointer(to: &window) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) } == 0
        guard known, window.ws_row > 0, window.ws_col > 0 else { return TerminalSize(rows: 24, columns: 80) }
        return TerminalSize(rows: Int(window.ws_row), columns: Int(window.ws_col))
    }

    /// The columns to wrap standard output's text to: the terminal's, or nil when standard output
    /// is none (pipes and files get whole lines).
    public static var outputColumns: Int? { isTerminal(.output) ? size.columns : nil }

    /// The input settings before `enterKeyMode`, to put back.
    public struct SavedMode {
        fileprivate var settings: termios
    }

    /// Keys arrive one by one, unechoed; nil when standard input is no terminal.
    public static func enterKeyMode() -> SavedMode? {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
        let saved = SavedMode(settings: settings)
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        // Ctrl-S must not freeze the screen, and Enter arrives as CR whatever the tty does.
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        return saved
    }

    public static func restore(_ saved: SavedMode) {
        var settings = saved.settings
        tcsetattr(STDIN_FILENO, TCSADRAIN, &settings)
    }
}
