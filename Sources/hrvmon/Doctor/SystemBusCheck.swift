import Platform
import DBus

/// Can this user reach the system D-Bus, the only way to bluetoothd?
struct SystemBusCheck: DoctorCheck {
    var connectionError: DBusError?
    /// DBUS_SYSTEM_BUS_ADDRESS, when it overrides the standard socket.
    var addressOverride: String?

    var check: String { "system_bus" }
    var title: String { "System D-Bus" }

    var finding: Finding {
        let bus = addressOverride.map { "the system bus at \($0) (DBUS_SYSTEM_BUS_ADDRESS)" } ?? "the system bus"
        guard let connectionError else { return verdict(.ok, "connected to \(bus)") }
        return verdict(
            .fail, "cannot connect to \(bus): \(connectionError.message.isEmpty ? connectionError.name : connectionError.message)",
            fix: addressOverride == nil
                ? "`sudo systemctl start dbus` (Debian package dbus)"
                : "unset DBUS_SYSTEM_BUS_ADDRESS to use the machine's system bus")
    }
}
