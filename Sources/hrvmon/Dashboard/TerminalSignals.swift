import DBus
import Glibc

/// SIGWINCH (resized), SIGTSTP (Ctrl-Z) and SIGCONT (continued) through a `SignalPipe`, so the
/// dashboard acts on them between events rather than in a signal handler.
enum TerminalSignals {
    private static let signals = [SIGWINCH, SIGTSTP, SIGCONT]

    /// Calls `handle` on the loop with each of the signals received.
    static func watch(on loop: EventLoop, _ handle: @escaping (Int32) -> Void) -> EventLoop.Source {
        SignalPipe.watch(signals, restart: true, on: loop) { received in received.forEach(handle) }
    }

    /// Stops the process as Ctrl-Z does by default (the caller has given the terminal back);
    /// returns once it is continued (`fg`).
    static func suspend() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        SignalPipe.install([SIGTSTP], restart: true)
    }

    /// The default actions again, once the dashboard is gone.
    static func reset() {
        for number in signals { signal(number, SIG_DFL) }
    }
}
