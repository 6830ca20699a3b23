import BlueZ
import DBus
import Presentation

/// May this user talk to bluetoothd? The bus's policy answers GetManagedObjects.
public struct BlueZAccessCheck: DoctorCheck {
    /// bluetoothd's answer; nil when not asked because it is not on the bus.
    public var objects: Result<ObjectTree, DBusError>?
    /// `alice`
    public var user: String
    /// Seconds GetManagedObjects was given.
    public var timeout: Double

    public var check: String { "permission" }
    public var title: String { "Access to bluetoothd" }

    public var finding: Finding {
        switch objects {
        case nil:
            return verdict(.skip, "not checked: bluetoothd is not on the system bus")
        case .success(let tree):
            return verdict(.ok, "user \(user) may call org.bluez (\(Formatting.count(tree.adapters.count, "adapter")), \(Formatting.count(tree.devices.count, "device")))")
        case .failure(let error) where error.name == "org.freedesktop.DBus.Error.AccessDenied":
            return verdict(
                .fail, "the system bus refuses user \(user)'s calls to org.bluez (AccessDenied: a D-Bus policy in /etc/dbus-1/system.d or /usr/share/dbus-1/system.d denies them)",
                fix: "Debian's bluetooth.conf lets every user and the `bluetooth` group call org.bluez; where a local policy narrows that to the group: `sudo adduser \(user) bluetooth`, then log out and in again (`grep -r org.bluez /etc/dbus-1` finds the policy)")
        case .failure(let error) where error.name == "org.freedesktop.DBus.Error.NoReply" || error.name == "org.freedesktop.DBus.Error.Timeout":
            return verdict(
                .fail, "bluetoothd did not answer GetManagedObjects within \(Formatting.fixed(timeout, digits: 0)) s",
                fix: "it may be hung: `sudo systemctl restart bluetooth`; `journalctl -b -u bluetooth`")
        case .failure(let error):
            return verdict(.fail, "bluetoothd refused GetManagedObjects: \(error)", fix: "`journalctl -b -u bluetooth`")
        }
    }

    public init(objects: Result<ObjectTree, DBusError>?, user: String, timeout: Double) {
        self.objects = objects
        self.user = user
        self.timeout = timeout
    }
}
