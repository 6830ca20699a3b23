/// Is bluetoothd running, and which version is installed?
public struct BluetoothdCheck: DoctorCheck {
    /// org.bluez's owner on the bus; nil when the bus was unreachable.
    public var owner: BusObservation.Owner?
    /// bluetoothd processes in /proc: the only evidence when the bus is unreachable.
    public var processIDs: [Int32]
    public var installation: BluetoothdInstallation

    public var check: String { "bluetoothd" }
    public var title: String { "Bluetooth daemon" }

    public var finding: Finding {
        switch owner {
        case .present(let processID):
            return verdict(.ok, "\(name) is running on the system bus\(processID.map { " (pid \($0))" } ?? "")\(unknownVersion)")
        case .absent:
            return verdict(.fail, "bluetoothd is not running: org.bluez has no owner on the system bus; \(installed)", fix: fix)
        case nil:
            if let first = processIDs.first {
                return verdict(.warn, "\(name) is running (pid \(first)), but hrvmon reaches it only through the system bus (see System D-Bus)\(unknownVersion)")
            }
            return verdict(.fail, "bluetoothd is not running: no bluetoothd process, and no system bus to find it on; \(installed)", fix: fix)
        }
    }

    /// `bluetoothd 5.66` when the version is known.
    private var name: String {
        if case .found(_, let version?) = installation { return "bluetoothd \(version)" }
        return "bluetoothd"
    }

    private var unknownVersion: String {
        switch installation {
        case .found(_, .some): ""
        case .found(let path, nil): "; version unknown (`\(path) --version` printed none)"
        case .notFound: "; version unknown (no bluetoothd in \(Self.searched))"
        }
    }

    private var installed: String {
        switch installation {
        case .found(let path, let version): "\(name) is installed (\(path))\(version == nil ? ", version unknown" : "")"
        case .notFound: "it is not installed (no \(Self.searched))"
        }
    }

    private var fix: String {
        switch installation {
        case .found: "`sudo systemctl enable --now bluetooth`; `journalctl -b -u bluetooth` says why it stopped"
        case .notFound: "`sudo apt install bluez`, then `sudo systemctl enable --now bluetooth`"
        }
    }

    private static var searched: String { BluetoothdInstallation.searchPaths.joined(separator: ", ") }

    public init(owner: BusObservation.Owner?, processIDs: [Int32], installation: BluetoothdInstallation) {
        self.owner = owner
        self.processIDs = processIDs
        self.installation = installation
    }
}
