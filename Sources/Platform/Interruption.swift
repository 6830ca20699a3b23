import Glibc

/// SIGINT / SIGTERM / SIGHUP turned into a flag the main loop checks, so it can restore the
/// terminal and exit 0, and into a wake-up of loops that sleep in poll (`watch`). A closed
/// terminal window (SIGHUP) ends a session as cleanly as Ctrl-C: the session file gets its
/// summary.
public enum Interruption {
    nonisolated(unsafe) private static var flag: sig_atomic_t = 0

    public static var requested: Bool { flag != 0 }

    /// Sets the flag at each of the signals. No SA_RESTART: a sleep (`nanosleep`) ends at once.
    public static func install() {
        SignalPipe.install(signals, restart: false, handler: handler)
    }

    /// Installs the handlers and runs `action` on the loop at each SIGINT, SIGTERM or SIGHUP.
    public static func watch(on loop: EventLoop, _ action: @escaping () -> Void) {
        SignalPipe.watch(signals, restart: false, handler: handler, on: loop) { _ in action() }
    }

    /// Sets the flag, and wakes the loop if one watches.
    private static let handler: @convention(c) (Int32) -> Void = { number in
        Interruption.flag = 1
        SignalPipe.forward(number)
    }

    /// Under nohup, SIGHUP stays ignored, as the caller meant.
    private static var signals: [Int32] {
        [SIGINT, SIGTERM, SIGHUP].filter { $0 != SIGHUP || !isIgnored($0) }
    }

    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        sigaction(signal, nil, &current)
        return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// Signals as bytes on a pipe the event loop watches, so they are acted on between events
/// rather than in a signal handler: the handler only writes the signal's number.
public enum SignalPipe {
    /// For each signal number, the write end of the pipe its watcher reads; -1 while none does.
    /// Set up before any handler runs, and read by handlers without a lock or an allocation.
    nonisolated(unsafe) private static let writers: UnsafeMutablePointer<Int32> = {
        let writers = UnsafeMutablePointer<Int32>.allocate(capacity: signalNumbers)
        writers.initialize(repeating: -1, count: signalNumbers)
        return writers
    }()
    /// Linux's signal numbers are below 65 (NSIG).
    private static let signalNumbers = 65

    /// The read end of the pipe made for each set of signals watched.
    nonisolated(unsafe) private static var readers: [[Int32]: Int32] = [:]

    /// The handler that only writes the signal's number.
    public static let forwarding: @convention(c) (Int32) -> Void = { SignalPipe.forward($0) }

    /// Writes the signal's number on its pipe; async-signal-safe, and a full pipe has woken the
    /// loop already.
    public static func forward(_ number: Int32) {
        guard number >= 0 && number < signalNumbers else { return }
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(writers[Int(number)], &byte, 1)
    }

    /// Handles `signals` with `handler` (`restart`: SA_RESTART), and unblocks them: a parent may
    /// have started us with them blocked (a blocked mask survives exec).
    public static func install(_ signals: [Int32], restart: Bool, handler: @convention(c) (Int32) -> Void = forwarding) {
        _ = writers  // made here, so no handler is the first to touch it
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = restart ? SA_RESTART : 0
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals {
            sigaction(signal, &action, nil)
            sigaddset(&mask, signal)
        }
        sigprocmask(SIG_UNBLOCK, &mask, nil)
    }

    /// Installs `handler` for `signals` and calls `handle` on the loop with the signals received
    /// since it last ran, oldest first.
    @discardableResult
    public static func watch(
        _ signals: [Int32], restart: Bool, handler: @convention(c) (Int32) -> Void = forwarding, on loop: EventLoop,
        handle: @escaping (_ received: [Int32]) -> Void
    ) -> EventLoop.Source {
        let reader = pipe(for: signals)
        install(signals, restart: restart, handler: handler)
        return loop.watch(reader) { _ in
            var received: [Int32] = []
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                received += bytes[..<count].map { Int32($0) }
            }
            handle(received)
        }
    }

    /// The read end of a non-blocking, close-on-exec pipe the handlers of `signals` write to;
    /// -1 when none can be made (the handlers still run, the loop just never hears of them).
    private static func pipe(for signals: [Int32]) -> Int32 {
        if let reader = readers[signals] { return reader }
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else { return -1 }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        for signal in signals { writers[Int(signal)] = ends[1] }
        readers[signals] = ends[0]
        return ends[0]
    }
}
