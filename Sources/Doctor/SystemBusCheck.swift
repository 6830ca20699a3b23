import DBus

/// Can this user reach the system D-Bus, the only way to bluetoothd?
public struct SystemBusCheck: DoctorCheck {
    public var connectionError: DBusError?
    /// DBUS_SYSTEM_BUS_ADDRESS, when it overrides the standard socket.
    public var addressOverride: String?

    public var check: String { "system_bus" }
    public var title: String { "System D-Bus" }

    public var finding: Finding {
        let bus = addressOverride.map { "the system bus at \($0) (DBUS_SYSTEM_BUS_ADDRESS)" } ?? "the system bus"
        guard let connectionError else { return verdict(.ok, "connected to \(bus)") }
        return verdict(
            .fail, "cannot connect to \(bus): \(connectionError.message.isEmpty ? connectionError.name : connectionError.message)",
            fix: addressOverride == nil
                ? "`sudo systemctl start dbus` (Debian package dbus)"
                : "unset DBUS_SYSTEM_BUS_ADDRESS to use the machine's system bus")
    }

    public init(connectionError: DBusError?, addressOverride: String?) {
        self.connectionError = connectionError
        self.addressOverride = addressOverride
    }
}
