import CDBus

/// One D-Bus message; owns a reference to libdbus's message.
public final class Message {
    public enum Kind: Equatable, Sendable {
        case methodCall, methodReturn, error, signal, other
    }

    let raw: OpaquePointer

    /// Takes over a reference the caller owns.
    init(taking raw: OpaquePointer) {
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    /// A method call with its arguments. Returns nil when libdbus rejects a name, a path or a value.
    public static func methodCall(
        destination: String, path: String, interface: String, member: String, arguments: [DBusValue] = []
    ) -> Message? {
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { return nil }
        let message = Message(taking: raw)
        return message.append(arguments) ? message : nil
    }

    /// Appends arguments in order; false when one is refused.
    func append(_ arguments: [DBusValue]) -> Bool {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        return arguments.allSatisfy { $0.encode(into: &iterator) }
    }

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case 1: .methodCall
        case 2: .methodReturn
        case 3: .error
        case 4: .signal
        default: .other
        }
    }

    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }

    /// The arguments in order; nil if one has a type this layer does not read.
    public var arguments: [DBusValue]? {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        return DBusValue.decodeAll(&iterator)
    }

    /// For an error message: its name and the text of its first argument.
    public var error: DBusError? {
        guard kind == .error, let name = dbus_message_get_error_name(raw) else { return nil }
        return DBusError(name: String(cString: name), message: arguments?.first?.string ?? "")
    }

    public func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }
}
