import BlueZ

/// Does bluetoothd have the adapter `monitor` would use, powered?
public struct BlueZAdapterCheck: DoctorCheck {
    /// bluetoothd's objects; nil when it did not answer.
    public var tree: ObjectTree?
    /// `--adapter`; monitor's default is the first adapter.
    public var requested: String?

    public var check: String { "powered" }
    public var title: String { "Adapter (BlueZ)" }

    public var finding: Finding {
        guard let tree else { return verdict(.skip, "not checked: no answer from bluetoothd") }
        let adapters = tree.adapters
        let names = adapters.map(\.name).joined(separator: ", ")
        guard let chosen = tree.adapter(named: requested) else {
            if let requested, !adapters.isEmpty {
                return verdict(.fail, "bluetoothd has no adapter \(requested), only \(names)", fix: "`--adapter \(adapters[0].name)`, or plug \(requested) in")
            }
            return verdict(.fail, "bluetoothd has no adapter", fix: "see Adapters (kernel); `journalctl -b -u bluetooth` shows what bluetoothd found")
        }
        let others = adapters.filter { $0 != chosen }.map { "\($0.name) \($0.isPowered ? "on" : "off")" }
        let alsoText = others.isEmpty ? "" : " (also: \(others.joined(separator: ", ")))"
        let role = requested == nil && adapters.count > 1 ? ", the default adapter," : ""
        guard chosen.isPowered else {
            return verdict(
                .fail, "\(chosen.name)\(role) is powered off\(alsoText)",
                fix: "`bluetoothctl power on`; if it will not stay on, `rfkill list` shows a block")
        }
        return verdict(.ok, "\(chosen.name)\(role) is powered\(alsoText)")
    }

    public init(tree: ObjectTree?, requested: String?) {
        self.tree = tree
        self.requested = requested
    }
}
