import BlueZ
import BluetoothHCI
import DBus
import Doctor
import Foundation
import Glibc
import Platform
import Testing

/// Each doctor check judged from made-up observations: every verdict and its fix, without
/// Bluetooth, a bus or a bluetoothd.
@Suite struct DoctorCheckTests {
    // MARK: Kernel

    @Test func kernelVerdictFollowsTheSocketErrno() {
        #expect(KernelBluetoothCheck(socketError: nil, isModuleLoaded: true).finding.status == .ok)

        let missing = KernelBluetoothCheck(socketError: Errno(code: EAFNOSUPPORT), isModuleLoaded: false).finding
        #expect(missing.status == .fail)
        #expect(missing.explanation.hasPrefix("this kernel has no Bluetooth: socket(AF_BLUETOOTH) fails with EAFNOSUPPORT"))
        #expect(missing.fix?.hasPrefix("`sudo modprobe bluetooth`") == true)

        // The module is there, the sockets are not: a network namespace of its own.
        let container = KernelBluetoothCheck(socketError: Errno(code: EAFNOSUPPORT), isModuleLoaded: true).finding
        #expect(container.status == .warn)
        #expect(container.explanation.contains("network namespace"))

        #expect(KernelBluetoothCheck(socketError: Errno(code: EPERM), isModuleLoaded: true).finding.status == .warn)
        let other = KernelBluetoothCheck(socketError: Errno(code: EIO), isModuleLoaded: true).finding
        #expect(other.status == .fail)
        #expect(other.explanation == "socket(AF_BLUETOOTH) fails: Input/output error (errno \(EIO))")
    }

    @Test func rfkillSwitchesAreReadFromSysfsFiles() throws {
        #expect(RfkillSwitch(name: "hci0\n", type: "bluetooth\n", soft: "1\n", hard: "0\n")
            == RfkillSwitch(name: "hci0", isSoftBlocked: true, isHardBlocked: false))
        #expect(RfkillSwitch(name: "phy0", type: "wlan\n", soft: "1\n", hard: "0\n") == nil)
        #expect(RfkillSwitch(name: "hci0", type: "bluetooth", soft: "", hard: "0") == nil)

        let sysfs = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: sysfs) }
        let entries = [
            ("rfkill0", ["name": "phy0", "type": "wlan", "soft": "1", "hard": "0"]),
            ("rfkill3", ["name": "tpacpi_bluetooth_sw", "type": "bluetooth", "soft": "0", "hard": "1"]),
            ("rfkill1", ["name": "hci0", "type": "bluetooth", "soft": "1", "hard": "0"]),
            ("other", ["name": "hci9", "type": "bluetooth", "soft": "1", "hard": "1"]),
        ]
        for (entry, files) in entries {
            try FileManager.default.createDirectory(atPath: sysfs + "/" + entry, withIntermediateDirectories: true)
            for (file, contents) in files { try (contents + "\n").write(toFile: "\(sysfs)/\(entry)/\(file)", atomically: true, encoding: .utf8) }
        }
        #expect(RfkillSwitch.all(in: sysfs) == [
            RfkillSwitch(name: "hci0", isSoftBlocked: true, isHardBlocked: false),
            RfkillSwitch(name: "tpacpi_bluetooth_sw", isSoftBlocked: false, isHardBlocked: true),
        ])
        #expect(RfkillSwitch.all(in: sysfs + "/absent").isEmpty)
    }

    @Test func kernelAdaptersUpDownAndBlocked() {
        let hci0 = HCI.Adapter(name: "hci0", address: "00:1A:7D:DA:71:13", isUp: true)
        let hci1 = HCI.Adapter(name: "hci1", address: "5C:F3:70:00:00:02", isUp: false)
        func finding(_ adapters: [HCI.Adapter], _ switches: [RfkillSwitch] = []) -> Finding {
            KernelAdaptersCheck(listing: .success(adapters), switches: switches).finding
        }

        #expect(KernelAdaptersCheck(listing: .failure(.socket(Errno(code: EAFNOSUPPORT))), switches: []).finding.status == .skip)
        #expect(KernelAdaptersCheck(listing: .failure(.deviceList(Errno(code: EFAULT))), switches: []).finding.status == .fail)

        let none = finding([])
        #expect(none.status == .fail)
        #expect(none.explanation == "the kernel has no Bluetooth adapter")
        #expect(none.fix?.contains("dmesg | grep -i bluetooth") == true)
        let airplane = finding([], [RfkillSwitch(name: "ideapad_bluetooth", isSoftBlocked: false, isHardBlocked: true)])
        #expect(airplane.explanation.contains("ideapad_bluetooth is hard-blocked"))
        #expect(airplane.fix?.contains("software cannot lift a hard block") == true)

        #expect(finding([hci0]) == Finding(check: "adapters", title: "Adapters (kernel)", status: .ok, explanation: "hci0 (00:1A:7D:DA:71:13) is up"))

        let soft = finding([HCI.Adapter(name: "hci0", address: "00:1A:7D:DA:71:13", isUp: false)], [RfkillSwitch(name: "hci0", isSoftBlocked: true, isHardBlocked: false)])
        #expect(soft.status == .fail)
        #expect(soft.explanation == "hci0 (00:1A:7D:DA:71:13) is soft-blocked by rfkill (hci0)")
        #expect(soft.fix == "`rfkill unblock bluetooth`")

        // A laptop's platform switch blocks every adapter; a switch of another adapter does not.
        let platform = finding([hci0], [RfkillSwitch(name: "tpacpi_bluetooth_sw", isSoftBlocked: true, isHardBlocked: false)])
        #expect(platform.status == .fail)
        #expect(finding([hci0], [RfkillSwitch(name: "hci1", isSoftBlocked: true, isHardBlocked: false)]).status == .ok)

        let mixed = finding([hci0, hci1])
        #expect(mixed.status == .warn)
        #expect(mixed.explanation == "hci0 (00:1A:7D:DA:71:13) is up; hci1 (5C:F3:70:00:00:02) is down")
        #expect(mixed.fix == "`bluetoothctl power on` (bluetoothd brings adapters up)")
    }

    // MARK: Bus and bluetoothd

    @Test func systemBusFixDependsOnTheAddressOverride() {
        let error = DBusError(name: "org.freedesktop.DBus.Error.FileNotFound", message: "Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory")
        let standard = SystemBusCheck(connectionError: error, addressOverride: nil).finding
        #expect(standard.status == .fail)
        #expect(standard.explanation == "cannot connect to the system bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory")
        #expect(standard.fix == "`sudo systemctl start dbus` (Debian package dbus)")
        #expect(SystemBusCheck(connectionError: error, addressOverride: "unix:path=/tmp/x").finding.fix?.contains("unset DBUS_SYSTEM_BUS_ADDRESS") == true)
        #expect(SystemBusCheck(connectionError: nil, addressOverride: nil).finding.status == .ok)
    }

    @Test func bluetoothdVersionIsADottedNumber() throws {
        #expect(BluetoothdInstallation.version("5.66\n") == "5.66")
        #expect(BluetoothdInstallation.version("5.72\nextra") == "5.72")
        #expect(BluetoothdInstallation.version("") == nil)
        #expect(BluetoothdInstallation.version("Unknown option --version\n") == nil)
        #expect(BluetoothdInstallation.version("5.") == nil)

        let proc = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: proc) }
        for (pid, command) in [("812", "bluetoothd"), ("90", "bash"), ("self", "bluetoothd"), ("7", "bluetoothd-helper")] {
            try FileManager.default.createDirectory(atPath: "\(proc)/\(pid)", withIntermediateDirectories: true)
            try (command + "\n").write(toFile: "\(proc)/\(pid)/comm", atomically: true, encoding: .utf8)
        }
        #expect(BluetoothdInstallation.runningProcesses(root: proc) == [812])
    }

    @Test func bluetoothdRunningOrNotAndItsVersion() {
        let installed = BluetoothdInstallation.found(path: "/usr/libexec/bluetooth/bluetoothd", version: "5.66")
        let running = BluetoothdCheck(owner: .present(processID: 812), processIDs: [], installation: installed).finding
        #expect(running.status == .ok)
        #expect(running.explanation == "bluetoothd 5.66 is running on the system bus (pid 812)")
        #expect(BluetoothdCheck(owner: .present(processID: nil), processIDs: [], installation: .notFound).finding.explanation
            == "bluetoothd is running on the system bus; version unknown (no bluetoothd in /usr/libexec/bluetooth/bluetoothd, /usr/sbin/bluetoothd, /usr/lib/bluetooth/bluetoothd)")

        let stopped = BluetoothdCheck(owner: .absent, processIDs: [], installation: installed).finding
        #expect(stopped.status == .fail)
        #expect(stopped.explanation == "bluetoothd is not running: org.bluez has no owner on the system bus; bluetoothd 5.66 is installed (/usr/libexec/bluetooth/bluetoothd)")
        #expect(stopped.fix?.hasPrefix("`sudo systemctl enable --now bluetooth`") == true)
        #expect(BluetoothdCheck(owner: .absent, processIDs: [], installation: .notFound).finding.fix
            == "`sudo apt install bluez`, then `sudo systemctl enable --now bluetooth`")

        // No bus: /proc is the only evidence.
        #expect(BluetoothdCheck(owner: nil, processIDs: [812], installation: installed).finding.status == .warn)
        let absent = BluetoothdCheck(owner: nil, processIDs: [], installation: .notFound).finding
        #expect(absent.status == .fail)
        #expect(absent.explanation.hasPrefix("bluetoothd is not running: no bluetoothd process"))
    }

    @Test func accessToBlueZFromTheBusAnswer() {
        func finding(_ objects: Result<ObjectTree, DBusError>?) -> Finding {
            BlueZAccessCheck(objects: objects, user: "alice", timeout: 3).finding
        }
        #expect(finding(nil).status == .skip)
        #expect(finding(.success(Self.tree())).explanation == "user alice may call org.bluez (1 adapter, 2 devices)")

        let denied = finding(.failure(DBusError(name: "org.freedesktop.DBus.Error.AccessDenied", message: "Rejected send message")))
        #expect(denied.status == .fail)
        #expect(denied.explanation.contains("refuses user alice's calls to org.bluez"))
        #expect(denied.fix?.contains("`sudo adduser alice bluetooth`, then log out and in again") == true)

        let hung = finding(.failure(DBusError(name: "org.freedesktop.DBus.Error.NoReply")))
        #expect(hung.explanation == "bluetoothd did not answer GetManagedObjects within 3 s")
        #expect(finding(.failure(DBusError(name: "org.bluez.Error.Failed", message: "boom"))).explanation
            == "bluetoothd refused GetManagedObjects: org.bluez.Error.Failed: boom")
    }

    @Test func adapterPoweredAsMonitorWouldChooseIt() {
        #expect(BlueZAdapterCheck(tree: nil, requested: nil).finding.status == .skip)
        let empty = BlueZAdapterCheck(tree: ObjectTree(), requested: nil).finding
        #expect(empty.status == .fail)
        #expect(empty.explanation == "bluetoothd has no adapter")

        #expect(BlueZAdapterCheck(tree: Self.tree(), requested: nil).finding.explanation == "hci0 is powered")
        let off = BlueZAdapterCheck(tree: Self.tree(adapters: ["hci0": false, "hci1": true]), requested: nil).finding
        #expect(off.status == .fail)
        #expect(off.explanation == "hci0, the default adapter, is powered off (also: hci1 on)")
        #expect(off.fix?.hasPrefix("`bluetoothctl power on`") == true)
        #expect(BlueZAdapterCheck(tree: Self.tree(adapters: ["hci0": false, "hci1": true]), requested: "hci1").finding.status == .ok)

        let missing = BlueZAdapterCheck(tree: Self.tree(), requested: "hci3").finding
        #expect(missing.explanation == "bluetoothd has no adapter hci3, only hci0")
        #expect(missing.fix == "`--adapter hci0`, or plug hci3 in")
    }

    @Test func strapPairedAndTrusted() {
        let file = "/home/alice/.local/share/hrvmon/last-sensor"
        func finding(_ choice: SensorCheck.Choice, paired: Bool = true, trusted: Bool = true) -> Finding {
            SensorCheck(tree: Self.tree(paired: paired, trusted: trusted), choice: choice).finding
        }
        let remembered = SensorCheck.Choice.remembered(address: Self.polar, file: file)
        #expect(SensorCheck(tree: nil, choice: remembered).finding.status == .skip)

        let none = finding(.none(file: file))
        #expect(none.status == .warn)
        #expect(none.fix?.contains("`bluetoothctl --timeout 20 scan on`") == true)

        #expect(finding(remembered) == Finding(
            check: "sensor", title: "Strap", status: .ok, explanation: "Polar H10 A1B2C3D4 (A0:9E:1A:00:00:01) is paired and trusted"))
        #expect(finding(.named("polar h10")).status == .ok)

        let unpaired = finding(remembered, paired: false, trusted: false)
        #expect(unpaired.status == .fail)
        #expect(unpaired.explanation.hasPrefix("Polar H10 A1B2C3D4 (A0:9E:1A:00:00:01) is neither paired nor trusted"))
        #expect(unpaired.fix == "wear the strap, then `bluetoothctl pair A0:9E:1A:00:00:01` and `bluetoothctl trust A0:9E:1A:00:00:01`")
        #expect(finding(remembered, paired: true, trusted: false).fix == "`bluetoothctl trust A0:9E:1A:00:00:01`")
        #expect(finding(remembered, paired: false, trusted: true).fix == "wear it, then `bluetoothctl pair A0:9E:1A:00:00:01`")

        let unknown = finding(.remembered(address: "C8:4A:2B:00:00:02", file: file))
        #expect(unknown.status == .fail)
        #expect(unknown.explanation == "bluetoothd does not know C8:4A:2B:00:00:02 (remembered in \(file)): it was never paired here, or was removed")
        #expect(unknown.fix?.contains("`bluetoothctl pair C8:4A:2B:00:00:02`") == true)

        let ambiguous = SensorCheck(tree: Self.tree(), choice: .named("r")).finding
        #expect(ambiguous.status == .fail)
        #expect(ambiguous.explanation.hasPrefix("'r' matches 2 devices"))
    }

    // MARK: Files

    @Test func configurationFile() {
        #expect(ConfigurationCheck(path: "/c", outcome: .absent).finding.explanation == "no configuration file (/c): every setting has its default")
        #expect(ConfigurationCheck(path: "/c", outcome: .valid).finding.status == .ok)
        let invalid = ConfigurationCheck(path: "/c", outcome: .invalid("/c:1: bad")).finding
        #expect(invalid.status == .fail)
        #expect(invalid.explanation == "/c:1: bad")
    }

    @Test func directoriesWritablePrivateAndOwned() {
        func finding(_ state: DirectoryState, _ role: DirectoryCheck.Role = .data) -> Finding {
            DirectoryCheck(role: role, path: "/home/alice/.local/share/hrvmon", state: state, user: "alice", userID: 1000).finding
        }
        #expect(finding(.directory(isWritable: true, owner: 1000, mode: 0o700)).status == .ok)
        let shared = finding(.directory(isWritable: true, owner: 1000, mode: 0o755))
        #expect(shared.status == .warn)
        #expect(shared.fix == "`chmod 700 /home/alice/.local/share/hrvmon`")
        #expect(finding(.directory(isWritable: true, owner: 1000, mode: 0o755), .config).status == .ok)

        let rootOwned = finding(.directory(isWritable: false, owner: 0, mode: 0o700))
        #expect(rootOwned.explanation == "/home/alice/.local/share/hrvmon belongs to uid 0, not to alice (uid 1000): was hrvmon run with sudo?")
        #expect(rootOwned.fix == "`sudo chown -R alice: /home/alice/.local/share/hrvmon`")
        #expect(finding(.directory(isWritable: false, owner: 1000, mode: 0o500)).explanation == "/home/alice/.local/share/hrvmon is not writable (mode 0500)")
        #expect(finding(.notADirectory).status == .fail)
        #expect(finding(.missing(parent: "/home/alice/.local/share", isParentWritable: true)).status == .ok)
        #expect(finding(.missing(parent: "/home/alice", isParentWritable: false)).status == .fail)
    }

    @Test func directoryStateIsObservedWithoutCreatingAnything() throws {
        let base = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        #expect(DirectoryState.observe(base + "/a/b/hrvmon") == .missing(parent: base, isParentWritable: true))
        #expect(!FileManager.default.fileExists(atPath: base + "/a"))
        #expect(mkdir(base + "/data", 0o750) == 0)
        #expect(DirectoryState.observe(base + "/data") == .directory(isWritable: true, owner: getuid(), mode: 0o750))
        #expect(FileManager.default.createFile(atPath: base + "/file", contents: nil))
        #expect(DirectoryState.observe(base + "/file") == .notADirectory)
    }

    // MARK: Report

    @Test func reportTextJSONAndExitStatus() throws {
        let findings = [
            Finding(check: "kernel", title: "Kernel Bluetooth", status: .fail, explanation: "none", fix: "modprobe"),
            Finding(check: "adapters", title: "Adapters (kernel)", status: .skip, explanation: "not checked", fix: "never shown"),
            Finding(check: "config", title: "Configuration", status: .ok, explanation: "fine"),
            Finding(check: "data_directory", title: "Data directory", status: .warn, explanation: "shared", fix: "chmod"),
        ]
        let report = DoctorReport(findings: findings)
        #expect(report.problems == 1 && report.warnings == 1)
        #expect(report.text(.init(isUnicode: true, hasColors: false)) == """
            ✗ Kernel Bluetooth: none
                fix: modprobe
            – Adapters (kernel): not checked
            ✓ Configuration: fine
            ! Data directory: shared
                fix: chmod

            1 problem, 1 warning: hrvmon cannot monitor a strap until the problems are fixed.

            """)
        let ascii = report.text(.init(isUnicode: false, hasColors: false))
        #expect(ascii.hasPrefix("FAIL Kernel Bluetooth: none\n"))
        #expect(ascii.contains("\nok   Configuration: fine\n"))
        #expect(report.text(.init(isUnicode: true, hasColors: true)).hasPrefix("\u{1B}[31m✗\u{1B}[0m Kernel Bluetooth"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect(json["ok"] as? Bool == false)
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.map { $0["status"] as? String } == ["fail", "skip", "ok", "warn"])
        #expect(checks[2]["fix"] is NSNull)

        #expect(DoctorReport(findings: [findings[2], findings[3]]).summary == "No problems; 1 warning.")
        #expect(DoctorReport(findings: [findings[2]]).summary == "All checks passed.")
    }

    @Test func childProcessOutputTimeoutAndFailure() {
        #expect(ChildProcess.output(of: "/bin/echo", ["5.66"], timeout: 5) == "5.66\n")
        #expect(ChildProcess.output(of: "/bin/false", [], timeout: 5) == nil)
        #expect(ChildProcess.output(of: "/nonexistent/bluetoothd", ["--version"], timeout: 5) == nil)
        let start = Date()
        #expect(ChildProcess.output(of: "/bin/sleep", ["10"], timeout: 0.3) == nil)
        #expect(Date().timeIntervalSince(start) < 5, "a hung helper is killed at the deadline")
    }

    // MARK: Fixtures

    static let polar = "A0:9E:1A:00:00:01"

    /// bluetoothd's objects: adapters with their power, the Polar strap and a TICKR on hci0.
    static func tree(adapters: [String: Bool] = ["hci0": true], paired: Bool = true, trusted: Bool = true) -> ObjectTree {
        func object(_ interface: String, _ properties: [String: DBusValue]) -> DBusValue {
            .dictionary(keySignature: "s", valueSignature: "a{sv}", [.init(.string(interface), .properties(properties))])
        }
        var objects = adapters.map { name, powered in
            DBusValue.DictionaryEntry(.objectPath("/org/bluez/" + name), object(BlueZNames.adapter, ["Powered": .boolean(powered)]))
        }
        for (address, name, isPaired, isTrusted) in [(polar, "Polar H10 A1B2C3D4", paired, trusted), ("C8:4A:2B:00:00:03", "TICKR", false, false)] {
            objects.append(.init(
                .objectPath("/org/bluez/hci0/dev_" + address.replacingOccurrences(of: ":", with: "_")),
                object(BlueZNames.device, [
                    "Address": .string(address), "Name": .string(name), "Adapter": .objectPath("/org/bluez/hci0"),
                    "Paired": .boolean(isPaired), "Trusted": .boolean(isTrusted),
                ])))
        }
        var tree = ObjectTree()
        tree.replace(with: .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", objects))
        return tree
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-doctor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
