import DBus
import Testing
@testable import BlueZ

@Suite struct BlueZModelTests {
    static let device = "/org/bluez/hci0/dev_A0_9E_1A_00_00_01"

    static func managedObjects() -> DBusValue {
        func object(_ interfaces: [String: [String: DBusValue]]) -> DBusValue {
            .dictionary(keySignature: "s", valueSignature: "a{sv}", interfaces.sorted { $0.key < $1.key }.map { .init(.string($0.key), .properties($0.value)) })
        }
        let objects: [(String, DBusValue)] = [
            ("/org/bluez/hci0", object(["org.bluez.Adapter1": ["Address": .string("00:1A:7D:DA:71:13"), "Powered": .boolean(true)]])),
            (device, object(["org.bluez.Device1": [
                "Address": .string("A0:9E:1A:00:00:01"), "Alias": .string("A0-9E-1A-00-00-01"), "Adapter": .objectPath("/org/bluez/hci0"),
                "UUIDs": .strings([AssignedNumber.heartRateService.uuid, AssignedNumber.batteryService.uuid]), "RSSI": .int16(-58),
            ]])),
            (device + "/service000c", object(["org.bluez.GattService1": ["UUID": .string(AssignedNumber.heartRateService.uuid)]])),
            (device + "/service000c/char000d", object(["org.bluez.GattCharacteristic1": [
                "UUID": .string(AssignedNumber.heartRateMeasurement.uuid), "Service": .objectPath(device + "/service000c"),
                "Flags": .strings(["notify"]), "Notifying": .boolean(false),
            ]])),
            ("/org/bluez/hci0/dev_11_22_33_44_55_66", object(["org.bluez.Device1": [
                "Address": .string("11:22:33:44:55:66"), "Name": .string("MX Keys"), "Adapter": .objectPath("/org/bluez/hci0"),
                "UUIDs": .strings(["00001812-0000-1000-8000-00805f9b34fb"]),
            ]])),
        ]
        return .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", objects.map { .init(.objectPath($0.0), $0.1) })
    }

    @Test func treeFollowsManagedObjectsAndSignals() throws {
        var tree = ObjectTree()
        tree.replace(with: Self.managedObjects())
        #expect(tree.adapters.map(\.name) == ["hci0"])
        let polar = try #require(tree.device(at: Self.device))
        #expect(polar.name == nil, "an alias that is the address is no name")
        #expect(polar.displayName == "A0:9E:1A:00:00:01")
        #expect(polar.offersHeartRate && polar.rssi == -58)
        #expect(tree.devices.filter(\.offersHeartRate).count == 1)
        #expect(tree.characteristic(.heartRateMeasurement, in: .heartRateService, of: Self.device)?.isNotifying == false)
        #expect(tree.characteristic(.batteryLevel, in: .batteryService, of: Self.device) == nil)

        tree.change(path: Self.device, interface: "org.bluez.Device1", changed: ["Connected": .boolean(true), "Name": .string("Polar H10")], invalidated: ["RSSI"])
        let changed = try #require(tree.device(at: Self.device))
        #expect(changed.isConnected && changed.name == "Polar H10" && changed.rssi == nil)
        #expect(changed.matches("polar") && changed.matches("a0:9e:1a:00:00:01") && !changed.matches("garmin"))

        tree.remove(path: Self.device + "/service000c/char000d", interfaces: ["org.bluez.GattCharacteristic1"])
        #expect(tree.characteristic(.heartRateMeasurement, in: .heartRateService, of: Self.device) == nil)
        tree.add(path: "/org/bluez/hci1", interfaces: .dictionary(keySignature: "s", valueSignature: "a{sv}", [
            .init(.string("org.bluez.Adapter1"), .properties(["Powered": .boolean(false)])),
        ]))
        #expect(tree.adapters.map(\.name) == ["hci0", "hci1"])
        #expect(tree.adapters.last?.isPowered == false)
        // Changes to unknown objects are ignored rather than inventing half an object.
        tree.change(path: "/org/bluez/hci9", interface: "org.bluez.Adapter1", changed: ["Powered": .boolean(true)], invalidated: [])
        #expect(tree.adapters.count == 2)
    }

    /// `--device` as monitor and doctor read it: an address; else the Heart Rate devices among
    /// the name matches; else every name match.
    @Test func devicesMatchingAQuery() {
        var tree = ObjectTree()
        tree.replace(with: Self.managedObjects())
        tree.change(path: Self.device, interface: "org.bluez.Device1", changed: ["Name": .string("Polar H10")], invalidated: [])
        tree.add(path: "/org/bluez/hci0/dev_C8_4A_2B_00_00_07", interfaces: .dictionary(keySignature: "s", valueSignature: "a{sv}", [
            .init(.string("org.bluez.Device1"), .properties([
                "Address": .string("C8:4A:2B:00:00:07"), "Name": .string("Polar Loop"), "Adapter": .objectPath("/org/bluez/hci0"),
            ])),
        ]))
        #expect(tree.devices(matching: "polar").map(\.address) == ["A0:9E:1A:00:00:01"])
        #expect(tree.devices(matching: "c8:4a:2b:00:00:07").map(\.name) == ["Polar Loop"])
        #expect(tree.devices(matching: "o").map(\.address) == ["A0:9E:1A:00:00:01"])
        #expect(tree.devices(matching: "loop").map(\.address) == ["C8:4A:2B:00:00:07"], "no Heart Rate among the matches: all of them")
        #expect(tree.devices(matching: "polar", on: "/org/bluez/hci1").isEmpty)
    }

    @Test func assignedNumbersAsBlueZWritesThem() {
        #expect(AssignedNumber.heartRateMeasurement.uuid == "00002a37-0000-1000-8000-00805f9b34fb")
        #expect(AssignedNumber.heartRateService.matches("0000180D-0000-1000-8000-00805F9B34FB"))
    }

    @Test func backoffDoublesUpToItsMaximumAndResets() {
        var backoff = Backoff(initial: 1, maximum: 30)
        #expect((0..<7).map { _ in backoff.next() } == [1, 2, 4, 8, 16, 30, 30])
        backoff.reset()
        #expect(backoff.next() == 1)
        var large = Backoff(initial: 0.5, maximum: 10)
        for _ in 0..<100 { _ = large.next() }
        #expect(large.next() == 10)
    }

    @Test func aConnectThatWaitedForTheSensorIsRetriedAtOnce() {
        var pacing = ConnectPacing(initial: 1, maximum: 30)
        // LE connects that timed out after 20 s while the strap was away: no wait, no back-off.
        for attempt in 0..<5 {
            let started = Double(attempt) * 20
            #expect(pacing.delay(afterAttemptStartedAt: started, failedAt: started + 20) == 0)
        }
        #expect(pacing.backoff.attempts == 0)
    }

    @Test func quickFailuresAreSpacedByTheBackoffFromTheAttemptsStart() {
        var pacing = ConnectPacing(initial: 1, maximum: 8)
        // Refused at once ("Operation already in progress", adapter trouble): 1, 2, 4, 8, 8 s
        // between attempt starts, minus the time each attempt took.
        #expect(pacing.delay(afterAttemptStartedAt: 100, failedAt: 100) == 1)
        #expect(pacing.delay(afterAttemptStartedAt: 101, failedAt: 101.5) == 1.5)
        #expect(pacing.delay(afterAttemptStartedAt: 103, failedAt: 103) == 4)
        #expect(pacing.delay(afterAttemptStartedAt: 107, failedAt: 107) == 8)
        #expect(pacing.delay(afterAttemptStartedAt: 115, failedAt: 115) == 8)
        // One that waited longer than the current spacing is retried at once, spacing unchanged.
        #expect(pacing.delay(afterAttemptStartedAt: 123, failedAt: 133) == 0)
        #expect(pacing.backoff.delay == 8)
        pacing.succeeded()
        #expect(pacing.delay(afterAttemptStartedAt: 200, failedAt: 200) == 1)
        #expect(pacing.delayAfterFailure() == 2)
    }
}
