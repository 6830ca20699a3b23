import DBus
import Glibc

/// SIGWINCH (resized), SIGTSTP (Ctrl-Z) and SIGCONT (continued) as bytes on a pipe the event
/// loop watches, so the dashboard acts on them between events rather than in a signal handler.
enum TerminalSignals {
    nonisolated(unsafe) private static var writer: Int32 = -1
    nonisolated(unsafe) private static var reader: Int32 = -1
    private static let signals = [SIGWINCH, SIGTSTP, SIGCONT]

    /// Calls `handle` on the loop with each of the signals received.
    static func watch(on loop: EventLoop, _ handle: @escaping (Int32) -> Void) -> EventLoop.Source {
        if reader < 0 {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends {
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(end, F_SETFL, O_NONBLOCK)
                }
                (reader, writer) = (ends[0], ends[1])
            }
        }
        for signal in signals { install(signal) }
        // A parent may have started us with them blocked (a blocked mask survives exec).
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
        let reader = reader
        return loop.watch(reader) { _ in
            var bytes = [UInt8](repeating: 0, count: 16)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                for byte in bytes[..<count] { handle(Int32(byte)) }
            }
        }
    }

    /// Stops the process as Ctrl-Z does by default (the caller has given the terminal back);
    /// returns once it is continued (`fg`).
    static func suspend() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        install(SIGTSTP)
    }

    /// The default actions again, once the dashboard is gone.
    static func reset() {
        for number in signals { signal(number, SIG_DFL) }
    }

    private static func install(_ number: Int32) {
        let handler: @convention(c) (Int32) -> Void = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            _ = write(TerminalSignals.writer, &byte, 1)  // async-signal-safe; a full pipe has woken the loop already
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }
}
