import DBus
import Glibc

/// SIGINT / SIGTERM / SIGHUP turned into a flag the main loop checks, so it can restore the
/// terminal and exit 0, and into a readable byte on `descriptor` for loops that sleep in poll.
/// A closed terminal window (SIGHUP) ends a session as cleanly as Ctrl-C: the session file gets
/// its summary.
enum Interruption {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0
    nonisolated(unsafe) private static var wakeWriter: Int32 = -1
    nonisolated(unsafe) private(set) static var descriptor: Int32 = -1

    static var requested: Bool { flag != 0 }

    static func install() {
        if descriptor < 0 {
            var ends: [Int32] = [-1, -1]
            if pipe(&ends) == 0 {
                for end in ends {
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(end, F_SETFL, O_NONBLOCK)
                }
                descriptor = ends[0]
                wakeWriter = ends[1]
            }
        }
        let handler: @convention(c) (Int32) -> Void = { _ in
            Interruption.flag = 1
            var byte: UInt8 = 1
            _ = write(Interruption.wakeWriter, &byte, 1)  // async-signal-safe; a full pipe already wakes the loop
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a sleeping loop wakes at once
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // Under nohup, SIGHUP stays ignored, as the caller meant.
            if signal == SIGHUP && isIgnored(signal) { continue }
            sigaction(signal, &action, nil)
            sigaddset(&signals, signal)
        }
        // A parent may have started us with them blocked (a blocked mask survives exec).
        sigprocmask(SIG_UNBLOCK, &signals, nil)
    }

    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Installs the handlers and runs `action` on the loop at each SIGINT, SIGTERM or SIGHUP.
    static func watch(on loop: EventLoop, _ action: @escaping () -> Void) {
        install()
        let descriptor = descriptor
        loop.watch(descriptor) { _ in
            var drain = [UInt8](repeating: 0, count: 64)
            while drain.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            action()
        }
    }
}
