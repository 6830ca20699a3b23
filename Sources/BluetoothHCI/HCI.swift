import CBluetooth
import Glibc
import Platform

/// The kernel's Bluetooth adapters through libbluetooth's HCI calls: an AF_BLUETOOTH socket, the
/// device list (HCIGETDEVLIST) and each device's info (`hci_devinfo`). Read-only; needs no
/// privileges.
public enum HCI {
    public struct Adapter: Equatable, Sendable {
        /// `hci0`: the same name BlueZ and rfkill use.
        public var name: String
        public var address: String
        /// The kernel's HCI_UP flag: the adapter is open and running (what BlueZ calls Powered).
        public var isUp: Bool

        public init(name: String, address: String, isUp: Bool) {
            self.name = name
            self.address = address
            self.isUp = isUp
        }
    }

    public enum Failure: Error, Equatable, Sendable {
        /// socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI) failed: the kernel's own answer to
        /// whether this process can see Bluetooth at all.
        case socket(Errno)
        /// The socket opened but the device list could not be read.
        case deviceList(Errno)
    }

    public static func adapters() -> Result<[Adapter], Failure> {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard descriptor >= 0 else { return .failure(.socket(.current)) }
        defer { close(descriptor) }
        return deviceIdentifiers(descriptor).mapError(Failure.deviceList).map { $0.compactMap(adapter) }
    }

    /// HCIGETDEVLIST fills a `hci_dev_list_req`: a count, then that many `hci_dev_req`.
    private static func deviceIdentifiers(_ descriptor: Int32) -> Result<[UInt16], Errno> {
        let capacity = Int(HCI_MAX_DEV)
        let header = MemoryLayout<hci_dev_list_req>.size
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: header + capacity * MemoryLayout<hci_dev_req>.stride, alignment: MemoryLayout<hci_dev_req>.alignment)
        defer { buffer.deallocate() }
        buffer.storeBytes(of: UInt16(capacity), as: UInt16.self)
        guard ioctl(descriptor, CBluetoothGetDeviceList, buffer) == 0 else { return .failure(.current) }
        let count = min(Int(buffer.load(as: UInt16.self)), capacity)
        let requests = (buffer + header).bindMemory(to: hci_dev_req.self, capacity: capacity)
        return .success((0..<count).map { requests[$0].dev_id })
    }

    /// nil when the adapter went away since the list was read.
    private static func adapter(_ identifier: UInt16) -> Adapter? {
        var info = hci_dev_info()
        guard hci_devinfo(Int32(identifier), &info) == 0 else { return nil }
        let name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var address = [CChar](repeating: 0, count: 18)
        ba2str(&info.bdaddr, &address)
        return Adapter(
            name: name,
            address: String(decoding: address.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            isUp: hci_test_bit(Int32(HCI_UP), &info.flags) != 0)
    }
}
