import Glibc

/// The signals a full-screen program answers: the window resized, suspend (Ctrl-Z), resumed.
public enum TerminalSignal: Sendable {
    case resized, suspend, resumed
}

/// SIGWINCH, SIGTSTP and SIGCONT through a `SignalPipe`, so the dashboard acts on them between
/// events rather than in a signal handler.
public enum TerminalSignals {
    private static let signals = [SIGWINCH, SIGTSTP, SIGCONT]

    public static func watch(on loop: EventLoop, _ handle: @escaping (TerminalSignal) -> Void) -> EventLoop.Source {
        SignalPipe.watch(signals, restart: true, on: loop) { received in
            for number in received {
                switch number {
                case SIGWINCH: handle(.resized)
                case SIGTSTP: handle(.suspend)
                case SIGCONT: handle(.resumed)
                default: continue
                }
            }
        }
    }

    /// Stops the process as Ctrl-Z would have, once the screen is restored; returns on SIGCONT.
    public static func suspend() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        SignalPipe.install([SIGTSTP], restart: true)
    }

    public static func reset() {
        for number in signals { signal(number, SIG_DFL) }
    }
}
