import BluetoothHCI
import Foundation
import Platform
import Testing

/// The kernel's adapters through libbluetooth, checked against what sysfs shows of the same
/// kernel: on a machine without Bluetooth (CI, containers) the socket is refused with the errno
/// `hrvmon doctor` explains; with it, the adapters are sysfs's hciN devices.
@Suite struct HCITests {
    @Test func adaptersAreWhatTheKernelHas() throws {
        let sysfs = ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/bluetooth")) ?? [])
            .filter { $0.hasPrefix("hci") && !$0.contains(":") }.sorted()
        switch HCI.adapters() {
        case .success(let adapters):
            #expect(adapters.map(\.name).sorted() == sysfs)
            #expect(adapters.allSatisfy { $0.address.count == 17 && $0.address.split(separator: ":").count == 6 })
        case .failure(.socket(let errno)):
            #expect(sysfs.isEmpty, "sysfs has adapters, but the socket was refused: \(errno)")
            #expect([Errno.addressFamilyNotSupported, .notPermitted, .permissionDenied].contains(errno))
        case .failure(.deviceList(let errno)):
            Issue.record("the socket opened but the device list failed: \(errno)")
        }
    }
}
