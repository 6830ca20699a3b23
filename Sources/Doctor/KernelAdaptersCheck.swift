import BluetoothHCI
/// The kernel's adapters (libbluetooth's HCI view): present, up, not blocked by rfkill.
public struct KernelAdaptersCheck: DoctorCheck {
    public var listing: Result<[HCI.Adapter], HCI.Failure>
    public var switches: [RfkillSwitch]

    public var check: String { "adapters" }
    public var title: String { "Adapters (kernel)" }

    public var finding: Finding {
        let adapters: [HCI.Adapter]
        switch listing {
        case .failure(.socket):
            return verdict(.skip, "not checked: no Bluetooth sockets (see Kernel Bluetooth)")
        case .failure(.deviceList(let error)):
            return verdict(.fail, "cannot list the kernel's adapters (HCIGETDEVLIST: \(error))", fix: Self.dmesg)
        case .success(let listed):
            adapters = listed
        }
        // An adapter's own switch is named after it (hciN); any other, a platform switch, blocks them all.
        let platform = switches.filter { !Self.isAdapterName($0.name) }
        guard !adapters.isEmpty else {
            if let blocked = Self.block(platform) {
                return verdict(
                    .fail, "no Bluetooth adapter, and the rfkill switch \(blocked.name) is \(blocked.isHardBlocked ? "hard" : "soft")-blocked (some laptops remove the adapter while it is)",
                    fix: Self.fix(for: blocked))
            }
            return verdict(.fail, "the kernel has no Bluetooth adapter", fix: "plug one in; " + Self.dmesg)
        }
        // Each adapter: what it is, and what to do when it is not usable.
        let states: [(text: String, fix: String?)] = adapters.map { adapter in
            let label = "\(adapter.name) (\(adapter.address))"
            if let blocked = Self.block(switches.filter { $0.name == adapter.name } + platform) {
                return ("\(label) is \(blocked.isHardBlocked ? "hard" : "soft")-blocked by rfkill (\(blocked.name))", Self.fix(for: blocked))
            }
            guard adapter.isUp else { return ("\(label) is down", "`bluetoothctl power on` (bluetoothd brings adapters up)") }
            return ("\(label) is up", nil)
        }
        let explanation = states.map(\.text).joined(separator: "; ")
        var fixes: [String] = []
        for case let (_, fix?) in states where !fixes.contains(fix) { fixes.append(fix) }
        guard !fixes.isEmpty else { return verdict(.ok, explanation) }
        let usable = states.contains { $0.fix == nil }
        return verdict(usable ? .warn : .fail, explanation, fix: fixes.joined(separator: "; "))
    }

    private static func isAdapterName(_ name: String) -> Bool {
        name.hasPrefix("hci") && name.count > 3 && name.dropFirst(3).allSatisfy(\.isASCII) && name.dropFirst(3).allSatisfy(\.isNumber)
    }

    /// The strongest block among `switches`: a hard block outranks a soft one.
    private static func block(_ switches: [RfkillSwitch]) -> RfkillSwitch? {
        switches.first { $0.isHardBlocked } ?? switches.first { $0.isSoftBlocked }
    }

    private static func fix(for blocked: RfkillSwitch) -> String {
        blocked.isHardBlocked
            ? "turn Bluetooth on with the wireless switch, the Fn key or the firmware setup: software cannot lift a hard block"
            : "`rfkill unblock bluetooth`"
    }

    private static let dmesg = "`dmesg | grep -i bluetooth` shows whether the kernel found an adapter and loaded its firmware (Debian ships most firmware in non-free-firmware: firmware-realtek, firmware-iwlwifi, firmware-atheros…)"

    public init(listing: Result<[HCI.Adapter], HCI.Failure>, switches: [RfkillSwitch]) {
        self.listing = listing
        self.switches = switches
    }
}
