/// An error reply, or a failure libdbus reported, with its D-Bus error name.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// e.g. `org.bluez.Error.NotPermitted` or `org.freedesktop.DBus.Error.ServiceUnknown`.
    public var name: String
    public var message: String

    public init(name: String, message: String = "") {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
    public static let invalidArguments = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let noServer = "org.freedesktop.DBus.Error.NoServer"
}
