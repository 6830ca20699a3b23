import DBus
import LivePipeline

extension ObjectTree {
    /// The adapter to use — `name` (e.g. `hci0`), or the first — if it exists and is powered;
    /// otherwise the status that says why not. `scan` and `monitor` word it the same way.
    public func poweredAdapter(named name: String?) -> Result<Adapter, LinkStatus> {
        guard let adapter = adapter(named: name) else {
            return .failure(LinkStatus(.noAdapter, name.map { "no adapter \($0): `bluetoothctl list` shows the adapters there are" }
                ?? "no Bluetooth adapter: plug one in, or check `rfkill list` (`rfkill unblock bluetooth`)"))
        }
        guard adapter.isPowered else {
            return .failure(LinkStatus(.adapterOff, "adapter \(adapter.name) is powered off: `bluetoothctl power on`"))
        }
        return .success(adapter)
    }
}

extension LinkStatus: Error {
    /// bluetoothd absent from the bus.
    static func unavailable(_ error: DBusError) -> LinkStatus {
        LinkStatus(
            .bluetoothUnavailable,
            "bluetoothd is not on the system bus (\(error.name)): start it with `sudo systemctl enable --now bluetooth` (Debian: `sudo apt install bluez` first if it is missing)")
    }

    /// The same status, for a caller that waits for it to change.
    var waiting: LinkStatus { LinkStatus(state, detail + "; waiting", retryIn: retryIn) }
}
