import BlueZ

/// Is the strap hrvmon will monitor paired and trusted, so bluetoothd keeps it between
/// connections?
public struct SensorCheck: DoctorCheck {
    public enum Choice: Equatable {
        /// `--device`: an address or (part of) a name.
        case named(String)
        /// The sensor `monitor` last streamed from, and the file that says so.
        case remembered(address: String, file: String)
        case none(file: String)
    }

    /// bluetoothd's objects; nil when it did not answer.
    public var tree: ObjectTree?
    public var choice: Choice

    public var check: String { "sensor" }
    public var title: String { "Strap" }

    public var finding: Finding {
        guard let tree else { return verdict(.skip, "not checked: no answer from bluetoothd") }
        let query: String
        let source: String
        switch choice {
        case .none(let file):
            return verdict(
                .warn, "no strap chosen yet: `hrvmon monitor` remembers the one it streams from (\(file))",
                fix: Self.pairing("ADDRESS", scan: true) + ", then run `hrvmon monitor` once")
        case .named(let name):
            (query, source) = (name, "--device")
        case .remembered(let address, let file):
            (query, source) = (address, "remembered in \(file)")
        }
        // As monitor chooses: a name that also matches, say, a watch without Heart Rate is not ambiguous.
        let matches = tree.devices(matching: query)
        guard let device = matches.first else {
            let address = query.contains(":") ? query : "ADDRESS"
            return verdict(
                .fail, "bluetoothd does not know \(query) (\(source)): it was never paired here, or was removed",
                fix: Self.pairing(address, scan: true))
        }
        guard matches.count == 1 else {
            return verdict(
                .fail, "'\(query)' matches \(matches.count) devices: \(matches.map { "\($0.displayName) (\($0.address))" }.joined(separator: ", "))",
                fix: "name one by its address: `--device \(matches[0].address)`")
        }
        let label = "\(device.name.map { "\($0) " } ?? "")(\(device.address))"
        switch (device.isPaired, device.isTrusted) {
        case (true, true):
            return verdict(.ok, "\(label) is paired and trusted")
        case (false, false):
            return verdict(
                .fail, "\(label) is neither paired nor trusted: bluetoothd may forget an unpaired sensor once it disconnects (always, if it uses a private address), and then it needs a new scan",
                fix: Self.pairing(device.address, scan: false))
        case (false, true):
            return verdict(
                .fail, "\(label) is not paired: bluetoothd may forget an unpaired sensor once it disconnects, and then it needs a new scan",
                fix: "wear it, then `bluetoothctl pair \(device.address)`")
        case (true, false):
            return verdict(.fail, "\(label) is paired but not trusted", fix: "`bluetoothctl trust \(device.address)`")
        }
    }

    /// Most straps advertise only while worn with moist electrodes.
    private static func pairing(_ address: String, scan: Bool) -> String {
        "wear the strap, then \(scan ? "`bluetoothctl --timeout 20 scan on`, " : "")`bluetoothctl pair \(address)` and `bluetoothctl trust \(address)`"
    }

    public init(tree: ObjectTree?, choice: Choice) {
        self.tree = tree
        self.choice = choice
    }
}
