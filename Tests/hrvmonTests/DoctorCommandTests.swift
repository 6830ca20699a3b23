import Foundation
import Glibc
import TestSupport
import Testing

/// `hrvmon doctor`, the real binary: on this machine with no bus, and against the fake
/// bluetoothd on a private bus.
@Suite(.serialized) struct DoctorCommandTests {
    struct Run {
        var status: Int32?
        var report: [String: Any]
        var checks: [String: [String: Any]]

        func status(of check: String) -> String? { checks[check]?["status"] as? String }
        func explanation(of check: String) -> String { checks[check]?["explanation"] as? String ?? "" }
        func fix(of check: String) -> String? { checks[check]?["fix"] as? String }
    }

    static func doctor(_ arguments: [String] = [], environment: [String: String]) throws -> Run {
        let process = try LiveProcess(["doctor", "--format", "json"] + arguments, environment: environment)
        let status = process.waitForExit(timeout: 20)
        let report = try #require(LiveProcess.parse(process.allLines.joined()), "\(process.stderr)")
        let checks = (report["checks"] as? [[String: Any]] ?? []).reduce(into: [:]) { all, check in
            all[check["check"] as? String ?? ""] = check
        }
        return Run(status: status, report: report, checks: checks)
    }

    /// The kernel's answer to this test process, so the kernel check is held to the truth on a
    /// machine with Bluetooth as on one without (this one, CI).
    static let kernelErrno: Int32? = {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1 /* BTPROTO_HCI */)
        guard descriptor >= 0 else { return errno }
        close(descriptor)
        return nil
    }()

    static var bluetoothdProcessRuns: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).contains { entry in
            Int(entry) != nil && (try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8)) == "bluetoothd\n"
        }
    }

    static let unreachableBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/hrvmon-doctor-test-bus"]

    /// A strap bluetoothd already knows, as after pairing with bluetoothctl.
    static func knownPolar(paired: Bool, trusted: Bool) -> FakeBluetooth.Config {
        var polar = FakeBluetooth.Device.polarH10
        polar.knownAtStart = true
        polar.paired = paired
        polar.trusted = trusted
        var config = FakeBluetooth.Config()
        config.devices = [polar]
        return config
    }

    /// A data directory in which `monitor` remembered the Polar.
    static func rememberingPolar() throws -> String {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-doctor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: data + "/hrvmon", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try (FakeBluetooth.polar + "\n").write(toFile: data + "/hrvmon/last-sensor", atomically: true, encoding: .utf8)
        return data
    }

    /// Every status is one of four, and the exit status follows the failures.
    static func expectConsistent(_ run: Run) {
        let statuses = run.checks.values.compactMap { $0["status"] as? String }
        #expect(statuses.count == 11)
        #expect(Set(statuses).isSubset(of: ["ok", "warn", "fail", "skip"]))
        let failures = statuses.filter { $0 == "fail" }.count
        #expect(run.report["problems"] as? Int == failures)
        #expect(run.status == (failures > 0 ? 1 : 0))
    }

    @Test func withoutKernelBluetoothOrBusItSaysSoAndExitsOne() throws {
        let run = try Self.doctor(environment: Self.unreachableBus)
        Self.expectConsistent(run)
        #expect(run.status == 1)
        switch Self.kernelErrno {
        case nil:
            #expect(run.status(of: "kernel") == "ok")
        case EAFNOSUPPORT where access("/sys/module/bluetooth", F_OK) != 0:
            #expect(run.status(of: "kernel") == "fail")
            #expect(run.explanation(of: "kernel").hasPrefix("this kernel has no Bluetooth: socket(AF_BLUETOOTH) fails with EAFNOSUPPORT"))
            #expect(run.status(of: "adapters") == "skip")
        default:
            #expect(run.status(of: "kernel") != "ok")
        }
        #expect(run.status(of: "system_bus") == "fail")
        #expect(run.explanation(of: "system_bus").contains("/nonexistent/hrvmon-doctor-test-bus"))
        #expect(run.fix(of: "system_bus") == "unset DBUS_SYSTEM_BUS_ADDRESS to use the machine's system bus")
        if Self.bluetoothdProcessRuns {
            #expect(run.status(of: "bluetoothd") == "warn")
        } else {
            #expect(run.status(of: "bluetoothd") == "fail")
            #expect(run.explanation(of: "bluetoothd").hasPrefix("bluetoothd is not running: no bluetoothd process"))
        }
        for check in ["permission", "powered", "sensor"] { #expect(run.status(of: check) == "skip") }

        // The same for people: a mark, the title and the explanation on one line, the fix under it.
        let text = try LiveProcess(["doctor"], environment: Self.unreachableBus.merging(["LC_ALL": "C.UTF-8"]) { $1 })
        #expect(text.waitForExit(timeout: 20) == 1)
        let lines = text.allLines
        #expect(lines.contains { $0.hasPrefix("✗ System D-Bus: cannot connect to the system bus at unix:path=/nonexistent/hrvmon-doctor-test-bus") })
        #expect(lines.contains("    fix: unset DBUS_SYSTEM_BUS_ADDRESS to use the machine's system bus"))
        #expect(lines.contains("– Strap: not checked: no answer from bluetoothd"))
        #expect(lines.last?.hasSuffix("hrvmon cannot monitor a strap until the problems are fixed.") == true)
    }

    @Test func pairedAndTrustedStrapPassesEveryBusCheck() throws {
        let fake = try FakeBluetooth(Self.knownPolar(paired: true, trusted: true))
        defer { fake.stop() }
        let data = try Self.rememberingPolar()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = try Self.doctor(environment: fake.environment.merging(["XDG_DATA_HOME": data]) { $1 })
        Self.expectConsistent(run)
        for check in ["system_bus", "bluetoothd", "permission", "powered", "sensor", "config", "data_directory", "config_directory"] {
            #expect(run.status(of: check) == "ok", "\(check): \(run.explanation(of: check))")
        }
        // With bluez installed here (the real-stack test installs it) the version is named too.
        #expect(run.explanation(of: "bluetoothd").range(of: #"^bluetoothd( \d+\.\d+)? is running on the system bus \(pid "#, options: .regularExpression) != nil,
                "\(run.explanation(of: "bluetoothd"))")
        #expect(run.explanation(of: "permission").hasSuffix("may call org.bluez (1 adapter, 1 device)"))
        #expect(run.explanation(of: "powered") == "hci0 is powered")
        #expect(run.explanation(of: "sensor") == "Polar H10 A1B2C3D4 (A0:9E:1A:00:00:01) is paired and trusted")
        // Doctor only looked: one GetManagedObjects, nothing else asked of bluetoothd.
        let methods = (try fake.run("calls")["calls"] as? [[String: Any]] ?? []).compactMap { $0["method"] as? String }
        #expect(methods == ["GetManagedObjects"])
    }

    @Test func unpairedStrapFailsWithTheBluetoothctlFix() throws {
        let fake = try FakeBluetooth(Self.knownPolar(paired: false, trusted: false))
        defer { fake.stop() }
        let data = try Self.rememberingPolar()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = try Self.doctor(environment: fake.environment.merging(["XDG_DATA_HOME": data]) { $1 })
        Self.expectConsistent(run)
        #expect(run.status == 1)
        #expect(run.status(of: "sensor") == "fail")
        #expect(run.explanation(of: "sensor").hasPrefix("Polar H10 A1B2C3D4 (A0:9E:1A:00:00:01) is neither paired nor trusted"))
        #expect(run.fix(of: "sensor") == "wear the strap, then `bluetoothctl pair A0:9E:1A:00:00:01` and `bluetoothctl trust A0:9E:1A:00:00:01`")

        // Named with --device instead of remembered: the same strap, the same verdict.
        let named = try Self.doctor(["--device", "polar h10"], environment: fake.environment)
        #expect(named.fix(of: "sensor") == run.fix(of: "sensor"))
    }

    /// A name that also matches a device without Heart Rate (a watch): doctor checks the strap
    /// monitor streams from, rather than calling the name ambiguous.
    @Test func doctorChecksTheStrapMonitorChooses() throws {
        var config = Self.knownPolar(paired: true, trusted: true)
        config.devices.append(FakeBluetooth.Device(
            address: "C8:4A:2B:00:00:07", name: "Polar Loop watch", paired: true, trusted: true,
            services: ["180f", "180a"], knownAtStart: true))
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let run = try Self.doctor(["--device", "Polar"], environment: fake.environment)
        #expect(run.status(of: "sensor") == "ok", "\(run.explanation(of: "sensor"))")
        #expect(run.explanation(of: "sensor") == "Polar H10 A1B2C3D4 (A0:9E:1A:00:00:01) is paired and trusted")

        let monitor = try LiveProcess(["monitor", "--device", "Polar", "--format", "jsonl"], environment: fake.environment)
        #expect(monitor.link("connected") != nil, "\(monitor.allLines)")
        #expect(monitor.objects.first { $0["type"] as? String == "sensor" }?["address"] as? String == FakeBluetooth.polar)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func strapBluetoothdHasNeverSeenNeedsAScanFirst() throws {
        var config = FakeBluetooth.Config()
        config.devices = []
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let data = try Self.rememberingPolar()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let run = try Self.doctor(environment: fake.environment.merging(["XDG_DATA_HOME": data]) { $1 })
        #expect(run.status(of: "sensor") == "fail")
        #expect(run.explanation(of: "sensor").hasPrefix("bluetoothd does not know A0:9E:1A:00:00:01 (remembered in \(data)/hrvmon/last-sensor)"))
        #expect(run.fix(of: "sensor")?.hasPrefix("wear the strap, then `bluetoothctl --timeout 20 scan on`, `bluetoothctl pair A0:9E:1A:00:00:01`") == true)

        let fresh = try Self.doctor(environment: fake.environment)
        #expect(fresh.status(of: "sensor") == "warn", "no strap chosen yet is not a failure")
    }

    @Test func poweredOffAdapterFailsWithTheFix() throws {
        var config = Self.knownPolar(paired: true, trusted: true)
        config.adapters[0].powered = false
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let run = try Self.doctor(environment: fake.environment)
        Self.expectConsistent(run)
        #expect(run.status == 1)
        #expect(run.status(of: "powered") == "fail")
        #expect(run.explanation(of: "powered") == "hci0 is powered off")
        #expect(run.fix(of: "powered")?.hasPrefix("`bluetoothctl power on`") == true)

        let missing = try Self.doctor(["--adapter", "hci1"], environment: fake.environment)
        #expect(missing.explanation(of: "powered") == "bluetoothd has no adapter hci1, only hci0")
    }

    /// A bus policy that does not admit this user: the bus itself answers AccessDenied.
    @Test func deniedByTheBusPolicyExplainsTheGroup() throws {
        let fake = try FakeBluetooth(Self.knownPolar(paired: true, trusted: true), busConfig: "bus-deny-bluez.conf")
        defer { fake.stop() }
        let run = try Self.doctor(environment: fake.environment)
        Self.expectConsistent(run)
        #expect(run.status == 1)
        #expect(run.status(of: "bluetoothd") == "ok")
        #expect(run.status(of: "permission") == "fail")
        #expect(run.explanation(of: "permission").contains("calls to org.bluez (AccessDenied"))
        #expect(run.fix(of: "permission")?.contains(" bluetooth`, then log out and in again") == true)
        #expect(run.status(of: "powered") == "skip")
        #expect(run.status(of: "sensor") == "skip")
    }

    @Test func bluetoothdGoneFromTheBus() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        fake.stopFake()
        let run = try Self.doctor(environment: fake.environment)
        Self.expectConsistent(run)
        #expect(run.status(of: "system_bus") == "ok")
        #expect(run.status(of: "bluetoothd") == "fail")
        #expect(run.explanation(of: "bluetoothd").hasPrefix("bluetoothd is not running: org.bluez has no owner on the system bus"))
        #expect(run.status(of: "permission") == "skip")
    }

    @Test func badUsageExitsTwo() throws {
        let process = try LiveProcess(["doctor", "--format", "xml"], environment: Self.unreachableBus)
        #expect(process.waitForExit() == 2)
        #expect(process.stderr.contains("--format"))
    }
}
