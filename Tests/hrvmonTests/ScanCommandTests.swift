import Foundation
import TestSupport
import Testing

/// `hrvmon scan`, and how `monitor` picks a sensor when none is named.
@Suite(.serialized) struct ScanCommandTests {
    static let tickr = FakeBluetooth.Device(address: "C8:4A:2B:00:00:02", name: "TICKR 1A2B", rssi: -75, services: ["180d"])

    /// A machine without a system bus (no dbus, no BlueZ): scan says what to install and start.
    @Test func withoutASystemBusSaysWhatToInstall() throws {
        let scan = try LiveProcess(
            ["scan", "--timeout", "1"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
        #expect(scan.waitForExit() == 1)
        #expect(scan.stderr.contains("cannot reach the system D-Bus"), "\(scan.stderr)")
        #expect(scan.stderr.contains("`sudo apt install dbus bluez`, then `sudo systemctl enable --now dbus bluetooth`"))
        #expect(scan.stderr.contains("`hrvmon doctor`"))
    }

    @Test func listsOnlyHeartRateSensorsWithTheirSignal() throws {
        var config = FakeBluetooth.Config()
        config.devices += [Self.tickr]
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let scan = try LiveProcess(["scan", "--timeout", "1.5", "--format", "json"], environment: fake.environment)
        #expect(scan.waitForExit() == 0, "\(scan.stderr)")
        let report = try #require(LiveProcess.parse(scan.allLines.joined()))
        #expect(report["adapter"] as? String == "hci0")
        let sensors = try #require(report["sensors"] as? [[String: Any]])
        #expect(sensors.map { $0["address"] as? String } == [FakeBluetooth.polar, Self.tickr.address], "strongest first; no keyboard")
        #expect(sensors.first?["rssi"] as? Int == -58)
        #expect(sensors.first?["name"] as? String == "Polar H10 A1B2C3D4")
        #expect(sensors.first?["paired"] as? Bool == false && sensors.first?["trusted"] as? Bool == false)
        // A filtered discovery, ended by the scan itself rather than by leaving the bus.
        let methods = (try fake.run("calls")["calls"] as? [[String: Any]] ?? []).compactMap { $0["method"] as? String }
        #expect(methods.starts(with: ["GetManagedObjects", "SetDiscoveryFilter", "StartDiscovery"]), "\(methods)")
        #expect(methods.contains("StopDiscovery"))

        let text = try LiveProcess(["scan", "--timeout", "1.5"], environment: fake.environment)
        #expect(text.waitForExit() == 0)
        #expect(text.allLines.first?.hasPrefix("ADDRESS ") == true)
        #expect(text.allLines.contains { $0.hasPrefix("A0:9E:1A:00:00:01  Polar H10 A1B2C3D4  -58 dBm") && $0.hasSuffix("no      no") })
    }

    @Test func poweredOffAdapterIsExplained() throws {
        var config = FakeBluetooth.Config()
        config.adapters[0].powered = false
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let scan = try LiveProcess(["scan", "--timeout", "1"], environment: fake.environment)
        #expect(scan.waitForExit() == 1)
        #expect(scan.stderr.contains("adapter hci0 is powered off: `bluetoothctl power on`"))
    }

    /// Without --device, the only sensor found is used and remembered for next time.
    @Test func monitorUsesTheOnlySensorAndRemembersIt() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let monitor = try LiveProcess(["monitor", "--scan-timeout", "1.5", "--format", "jsonl"], environment: fake.environment)
        #expect(monitor.link("connected", timeout: 15) != nil, "\(monitor.stderr)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        let remembered = try String(contentsOfFile: monitor.home + "/data/hrvmon/last-sensor", encoding: .utf8)
        #expect(remembered == FakeBluetooth.polar + "\n")
    }

    /// Several sensors and no terminal to ask on: the list, and exit status 2.
    @Test func severalSensorsWithoutATerminalExitTwoWithTheList() throws {
        var config = FakeBluetooth.Config()
        config.devices += [Self.tickr]
        let fake = try FakeBluetooth(config)
        defer { fake.stop() }
        let monitor = try LiveProcess(["monitor", "--scan-timeout", "1.5"], environment: fake.environment)
        #expect(monitor.waitForExit(timeout: 15) == 2)
        #expect(monitor.stderr.contains("2 heart-rate sensors found; choose one with --device:"))
        #expect(monitor.stderr.contains("1. Polar H10 A1B2C3D4  A0:9E:1A:00:00:01  -58 dBm"))
        #expect(monitor.stderr.contains("2. TICKR 1A2B  C8:4A:2B:00:00:02  -75 dBm"))
    }

    /// --device by part of the name, the sensor remembered for the next run (no scan), and
    /// --adapter naming one that does not exist, with --duration ending that run by itself. The
    /// runs that connect are stopped once connected: a --duration would have to outlast the
    /// connecting, which takes over a second on a busy machine (measured with two CPU hogs per core).
    @Test func nameDurationRememberedSensorAndAdapter() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-data-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let environment = fake.environment.merging(["XDG_DATA_HOME": data]) { $1 }

        let first = try LiveProcess(["monitor", "--device", "polar h10", "--format", "jsonl"], environment: environment)
        #expect(first.link("connected", timeout: 15) != nil, "\(first.stderr)")
        first.signal(SIGINT)
        #expect(first.waitForExit(timeout: 15) == 0, "\(first.stderr)")
        #expect(first.objects.last?["type"] as? String == "summary")

        let second = try LiveProcess(["monitor", "--format", "jsonl"], environment: environment)
        #expect(second.next(timeout: 15) { $0["type"] as? String == "sensor" && $0["address"] as? String == FakeBluetooth.polar } != nil)
        second.signal(SIGINT)
        #expect(second.waitForExit(timeout: 15) == 0)
        #expect(!second.stderr.contains("scanning"))

        let missing = try LiveProcess(["monitor", "--adapter", "hci1", "--device", FakeBluetooth.polar, "--duration", "1", "--format", "jsonl"], environment: environment)
        #expect(missing.link("no_adapter")?["detail"] as? String == "no adapter hci1: `bluetoothctl list` shows the adapters there are; waiting")
        #expect(missing.waitForExit(timeout: 15) == 0)
    }
}
