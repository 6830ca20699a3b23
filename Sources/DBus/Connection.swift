import CDBus
import Glibc
import Platform

/// A private connection to a bus, driven by an `EventLoop`: libdbus's watches and timeouts become
/// loop sources and timers, so the process sleeps until the bus has data or a call times out.
public final class Connection {
    let raw: OpaquePointer
    private let loop: EventLoop
    private var watches: [OpaquePointer: EventLoop.Source] = [:]
    private var timeouts: [OpaquePointer: EventLoop.Timer] = [:]
    private var signalHandlers: [(Message) -> Void] = []
    private var isClosed = false

    /// Called once when the bus goes away (daemon stopped, socket closed).
    public var onDisconnect: (() -> Void)?

    /// The system bus, or the bus `DBUS_SYSTEM_BUS_ADDRESS` names. Blocks for the Hello exchange.
    public static func system(loop: EventLoop) throws(DBusError) -> Connection {
        var error = DBusError.Raw()
        guard let raw = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error.value) else { throw error.take() }
        return Connection(raw: raw, loop: loop)
    }

    /// The user's session bus: the one `DBUS_SESSION_BUS_ADDRESS` names, else `$XDG_RUNTIME_DIR/bus`.
    /// Without either there is none: libdbus would otherwise autolaunch a bus through dbus-launch
    /// (an X11 helper), which a program running in the background must not do.
    public static func session(loop: EventLoop) throws(DBusError) -> Connection {
        guard sessionBusIsAdvertised else {
            throw DBusError(name: DBusError.noServer, message: "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus)")
        }
        var error = DBusError.Raw()
        guard let raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error.value) else { throw error.take() }
        return Connection(raw: raw, loop: loop)
    }

    private static var sessionBusIsAdvertised: Bool {
        if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 { return true }
        guard let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 else { return false }
        var status = stat()
        return stat(String(cString: runtime) + "/bus", &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    private init(raw: OpaquePointer, loop: EventLoop) {
        self.raw = raw
        self.loop = loop
        // The default would exit the process when the bus goes away; we report it instead.
        dbus_connection_set_exit_on_disconnect(raw, 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            raw,
            { watch, context in Connection.from(context).add(watch: watch!) },
            { watch, context in Connection.from(context).remove(watch: watch!) },
            { watch, context in Connection.from(context).toggle(watch: watch!) },
            context, nil)
        dbus_connection_set_timeout_functions(
            raw,
            { timeout, context in Connection.from(context).add(timeout: timeout!) },
            { timeout, context in Connection.from(context).remove(timeout: timeout!) },
            { timeout, context in Connection.from(context).toggle(timeout: timeout!) },
            context, nil)
        dbus_connection_add_filter(
            raw, { _, message, context in Connection.from(context).filter(message!) }, context, nil)
        loop.runBeforeSleep { [weak self] in self?.dispatch() }
    }

    deinit { close() }

    /// Flushes what is queued and closes the connection.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
        dbus_connection_close(raw)
        for source in watches.values { source.cancel() }
        for timer in timeouts.values { timer.cancel() }
        watches.removeAll()
        timeouts.removeAll()
        dbus_connection_unref(raw)
    }

    /// Reads and dispatches what the bus sends, without the event loop, until `isDone` or
    /// `timeout` seconds have passed: for a reply still wanted when the loop has stopped.
    public func dispatch(forAtMost timeout: Double, until isDone: () -> Bool) {
        let deadline = EventLoop.now() + timeout
        while !isClosed, !isDone() {
            let remaining = deadline - EventLoop.now()
            guard remaining > 0, dbus_connection_read_write_dispatch(raw, Int32((remaining * 1000).rounded(.up))) != 0 else { return }
        }
    }

    /// Sends a method call; `reply` runs from the loop with its result, or a NoReply error after `timeout`.
    public func call(_ message: Message, timeout: Double = 25, reply: @escaping (Result<Message, DBusError>) -> Void) {
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Int32(timeout * 1000)) != 0, let pending else {
            loop.schedule(after: 0) { reply(.failure(DBusError(name: DBusError.disconnected, message: "not connected to the bus"))) }
            return
        }
        let box = Unmanaged.passRetained(ReplyHandler(reply)).toOpaque()
        dbus_pending_call_set_notify(
            pending,
            { pending, context in
                let handler = Unmanaged<ReplyHandler>.fromOpaque(context!).takeUnretainedValue()
                guard let reply = dbus_pending_call_steal_reply(pending) else { return }
                handler.deliver(Message(taking: reply))
            },
            box,
            { context in Unmanaged<ReplyHandler>.fromOpaque(context!).release() })
        dbus_pending_call_unref(pending)
    }

    /// Convenience for a method call built from its parts.
    public func call(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = [],
        timeout: Double = 25, reply: @escaping (Result<[DBusValue], DBusError>) -> Void
    ) {
        guard let message = Message.methodCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments) else {
            let error = DBusError(name: DBusError.invalidArguments, message: "cannot build \(interface).\(member) for \(path)")
            loop.schedule(after: 0) { reply(.failure(error)) }
            return
        }
        call(message, timeout: timeout) { result in
            reply(result.flatMap { message in
                message.arguments.map(Result.success)
                    ?? .failure(DBusError(name: DBusError.invalidArguments, message: "unreadable reply to \(member)"))
            })
        }
    }

    /// Asks the bus to route matching signals to us. Does not wait for the bus's answer.
    public func addMatch(_ rule: MatchRule) {
        dbus_bus_add_match(raw, rule.description, nil)
    }

    /// Every signal received goes to every handler, in registration order.
    public func onSignal(_ handler: @escaping (Message) -> Void) {
        signalHandlers.append(handler)
    }

    // MARK: libdbus callbacks

    private static func from(_ context: UnsafeMutableRawPointer?) -> Connection {
        Unmanaged<Connection>.fromOpaque(context!).takeUnretainedValue()
    }

    private func add(watch: OpaquePointer) -> dbus_bool_t {
        let flags = dbus_watch_get_flags(watch)
        var events: Int16 = 0
        if flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0 { events |= Int16(POLLIN) }
        if flags & UInt32(DBUS_WATCH_WRITABLE.rawValue) != 0 { events |= Int16(POLLOUT) }
        watches[watch] = loop.watch(dbus_watch_get_unix_fd(watch), events: events, isEnabled: dbus_watch_get_enabled(watch) != 0) { returned in
            var condition: UInt32 = 0
            if returned & Int16(POLLIN) != 0 { condition |= UInt32(DBUS_WATCH_READABLE.rawValue) }
            if returned & Int16(POLLOUT) != 0 { condition |= UInt32(DBUS_WATCH_WRITABLE.rawValue) }
            if returned & Int16(POLLERR) != 0 { condition |= UInt32(DBUS_WATCH_ERROR.rawValue) }
            if returned & Int16(POLLHUP) != 0 { condition |= UInt32(DBUS_WATCH_HANGUP.rawValue) }
            dbus_watch_handle(watch, condition)
        }
        return 1
    }

    private func remove(watch: OpaquePointer) {
        watches.removeValue(forKey: watch)?.cancel()
    }

    private func toggle(watch: OpaquePointer) {
        watches[watch]?.isEnabled = dbus_watch_get_enabled(watch) != 0
    }

    private func add(timeout: OpaquePointer) -> dbus_bool_t {
        arm(timeout)
        return 1
    }

    private func remove(timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
    }

    private func toggle(timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
        arm(timeout)
    }

    /// libdbus timeouts repeat until removed or disabled.
    private func arm(_ timeout: OpaquePointer) {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = Double(dbus_timeout_get_interval(timeout)) / 1000
        timeouts[timeout] = loop.schedule(after: interval) { [weak self] in
            guard let self, self.timeouts[timeout] != nil else { return }
            self.timeouts[timeout] = nil
            self.arm(timeout)
            dbus_timeout_handle(timeout)
        }
    }

    private func filter(_ raw: OpaquePointer) -> DBusHandlerResult {
        dbus_message_ref(raw)
        let message = Message(taking: raw)
        if message.kind == .signal {
            if message.isSignal(interface: "org.freedesktop.DBus.Local", member: "Disconnected") {
                let handler = onDisconnect
                onDisconnect = nil
                handler?()
            } else {
                for handler in signalHandlers { handler(message) }
            }
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    private func dispatch() {
        guard !isClosed else { return }
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }
}

private final class ReplyHandler {
    let reply: (Result<Message, DBusError>) -> Void

    init(_ reply: @escaping (Result<Message, DBusError>) -> Void) {
        self.reply = reply
    }

    func deliver(_ message: Message) {
        reply(message.error.map(Result.failure) ?? .success(message))
    }
}

extension DBusError {
    /// libdbus's `DBusError` out-parameter.
    struct Raw {
        var value = CDBus.DBusError()

        init() { dbus_error_init(&value) }

        mutating func take() -> DBusError {
            defer { dbus_error_free(&value) }
            guard dbus_error_is_set(&value) != 0 else { return DBusError(name: "org.freedesktop.DBus.Error.Failed") }
            return DBusError(
                name: value.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                message: value.message.map { String(cString: $0) } ?? "")
        }
    }
}
