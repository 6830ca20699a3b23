/// Names BlueZ uses on the bus (bluez doc/org.bluez.*.rst).
public enum BlueZNames {
    public static let service = "org.bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let properties = "org.freedesktop.DBus.Properties"

    /// Error names BlueZ replies with.
    public enum Error {
        public static let inProgress = "org.bluez.Error.InProgress"
        public static let notPermitted = "org.bluez.Error.NotPermitted"
        public static let notConnected = "org.bluez.Error.NotConnected"
        public static let notSupported = "org.bluez.Error.NotSupported"
        public static let alreadyConnected = "org.bluez.Error.AlreadyConnected"
    }
}

/// A 16-bit Bluetooth SIG UUID and its 128-bit form as BlueZ writes it (lower case).
public struct AssignedNumber: Equatable, Hashable, Sendable {
    public let value: UInt16
    public let uuid: String

    public init(_ value: UInt16) {
        self.value = value
        let hex = String(value, radix: 16)
        uuid = "0000" + String(repeating: "0", count: 4 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }

    public func matches(_ uuid: String) -> Bool { uuid.lowercased() == self.uuid }

    public static let heartRateService = AssignedNumber(0x180D)
    public static let batteryService = AssignedNumber(0x180F)
    public static let heartRateMeasurement = AssignedNumber(0x2A37)
    public static let bodySensorLocation = AssignedNumber(0x2A38)
    public static let batteryLevel = AssignedNumber(0x2A19)
}
