import DBus
import Platform

/// Where the desktop session's idle time comes from, in the order they are tried.
public enum DeskIdleSource: String, CaseIterable, Sendable {
    /// GNOME's compositor: org.gnome.Mutter.IdleMonitor.GetIdletime on the session bus,
    /// milliseconds since the last input (mutter's data/dbus-interfaces/org.gnome.Mutter.IdleMonitor.xml).
    case mutter
    /// org.freedesktop.ScreenSaver.GetSessionIdleTime on the session bus, whole seconds (KDE's
    /// kscreenlocker and others; GNOME Shell owns the name but answers an error).
    case screenSaver = "screensaver"
    /// systemd-logind's Session IdleHint and IdleSinceHint on the system bus (org.freedesktop.login1(5)):
    /// coarse — a desktop sets the hint after its own idle delay, a text console's follows its
    /// terminal's last input.
    case logind
}

/// The desktop session's idle time over D-Bus: the first source that answers (``find``), then
/// asked again with ``read``. Every call is asynchronous on the event loop, with a timeout, so a
/// desktop that never answers costs a timer and nothing else.
public final class DeskIdleReader {
    public let source: DeskIdleSource
    private let connection: Connection
    private let query: Query

    enum Query {
        case mutter
        case screenSaver(path: String)
        /// The caller's session object of logind.
        case logind(session: String)
    }

    static let mutterName = "org.gnome.Mutter.IdleMonitor"
    static let mutterPath = "/org/gnome/Mutter/IdleMonitor/Core"
    static let screenSaverName = "org.freedesktop.ScreenSaver"
    /// KDE serves both; the first is the specification's.
    static let screenSaverPaths = ["/org/freedesktop/ScreenSaver", "/ScreenSaver"]
    static let logindName = "org.freedesktop.login1"

    private init(source: DeskIdleSource, connection: Connection, query: Query) {
        self.source = source
        self.connection = connection
        self.query = query
    }

    /// Tries Mutter, then the ScreenSaver, then logind, and hands `found` a reader of the first
    /// that answers with the documented type; nil when none does (no session bus, no desktop, no
    /// logind). Each attempt waits at most `timeout` seconds. A connection no reader keeps closes.
    public static func find(loop: EventLoop, timeout: Double = 2, found: @escaping (DeskIdleReader?) -> Void) {
        var attempts: [(DeskIdleSource, Query)] = [(.mutter, .mutter)]
        attempts += screenSaverPaths.map { (.screenSaver, .screenSaver(path: $0)) }
        guard let session = try? Connection.session(loop: loop) else { return findLogind(loop: loop, timeout: timeout, found: found) }
        attempt(attempts[...], on: session, timeout: timeout) { reader in
            if let reader { return found(reader) }
            findLogind(loop: loop, timeout: timeout, found: found)
        }
    }

    private static func attempt(
        _ attempts: ArraySlice<(DeskIdleSource, Query)>, on connection: Connection, timeout: Double,
        then done: @escaping (DeskIdleReader?) -> Void
    ) {
        guard let (source, query) = attempts.first else { return done(nil) }
        ask(query, on: connection, timeout: timeout) { result in
            if case .success = result { return done(DeskIdleReader(source: source, connection: connection, query: query)) }
            attempt(attempts.dropFirst(), on: connection, timeout: timeout, then: done)
        }
    }

    /// logind's session for this process: `$XDG_SESSION_ID`, else `auto` (the caller's session, or
    /// the user's display session when the caller runs outside one).
    private static func findLogind(loop: EventLoop, timeout: Double, found: @escaping (DeskIdleReader?) -> Void) {
        guard let system = try? Connection.system(loop: loop) else { return found(nil) }
        let id = Environment.value("XDG_SESSION_ID").flatMap { $0.isEmpty ? nil : $0 } ?? "auto"
        system.call(
            destination: logindName, path: "/org/freedesktop/login1", interface: logindName + ".Manager", member: "GetSession",
            arguments: [.string(id)], timeout: timeout
        ) { result in
            guard case .success(let values) = result, values.count == 1, case .objectPath(let path) = values[0] else { return found(nil) }
            attempt([(.logind, .logind(session: path))], on: system, timeout: timeout, then: found)
        }
    }

    /// Seconds since the last keyboard or pointer input, or nil: the source failed, did not
    /// answer within `timeout` seconds, or answered without one.
    public func read(timeout: Double = 5, _ reply: @escaping (Double?) -> Void) {
        Self.ask(query, on: connection, timeout: timeout) { result in
            if case .success(let seconds) = result { reply(seconds) } else { reply(nil) }
        }
    }

    /// The idle time as the source tells it; success with nil when it answered without one
    /// (logind that never saw the session idle or busy).
    private static func ask(_ query: Query, on connection: Connection, timeout: Double, _ reply: @escaping (Result<Double?, DBusError>) -> Void) {
        let (destination, path, interface, member, arguments): (String, String, String, String, [DBusValue]) =
            switch query {
            case .mutter: (mutterName, mutterPath, mutterName, "GetIdletime", [])
            case .screenSaver(let path): (screenSaverName, path, screenSaverName, "GetSessionIdleTime", [])
            case .logind(let session):
                (logindName, session, "org.freedesktop.DBus.Properties", "GetAll", [.string(logindName + ".Session")])
            }
        connection.call(destination: destination, path: path, interface: interface, member: member, arguments: arguments, timeout: timeout) {
            reply($0.flatMap { idleSeconds(in: $0, for: query, now: WallClock.now()) })
        }
    }

    /// A reply read as its source documents it: Mutter's `t` milliseconds, the ScreenSaver's `u`
    /// seconds, logind's `a{sv}` with `IdleHint` (b) and `IdleSinceHint` (t, microseconds of
    /// CLOCK_REALTIME: when the session last went idle or busy — a text console's last input —,
    /// 0 when it never did: nil). Anything else is not this source. `now`: Unix seconds.
    static func idleSeconds(in values: [DBusValue], for query: Query, now: Double) -> Result<Double?, DBusError> {
        switch (query, values.first, values.count) {
        case (.mutter, .uint64(let milliseconds), 1): return .success(Double(milliseconds) / 1000)
        case (.screenSaver, .uint32(let seconds), 1): return .success(Double(seconds))
        case (.logind, let properties?, 1):
            guard let properties = properties.dictionary, properties["IdleHint"]?.bool != nil,
                case .variant(.uint64(let since)) = properties["IdleSinceHint"]
            else { break }
            return .success(since == 0 ? nil : max(0, now - Double(since) / 1_000_000))
        default: break
        }
        return .failure(DBusError(name: DBusError.invalidArguments, message: "not the documented reply of \(query)"))
    }
}
