import DBus

/// BlueZ's objects as its ObjectManager describes them: path → interface → property → value.
/// Kept current from GetManagedObjects, InterfacesAdded/Removed and PropertiesChanged. Pure.
public struct ObjectTree: Sendable {
    public typealias Properties = [String: DBusValue]
    public private(set) var objects: [String: [String: Properties]] = [:]

    public init() {}

    /// Replaces everything with a GetManagedObjects reply (`a{oa{sa{sv}}}`).
    public mutating func replace(with managedObjects: DBusValue) {
        objects = [:]
        for (path, interfaces) in managedObjects.dictionary ?? [:] { add(path: path, interfaces: interfaces) }
    }

    public mutating func removeAll() { objects = [:] }

    /// InterfacesAdded: `a{sa{sv}}` for one path.
    public mutating func add(path: String, interfaces: DBusValue) {
        for (interface, properties) in interfaces.dictionary ?? [:] {
            objects[path, default: [:]][interface] = properties.dictionary ?? [:]
        }
    }

    public mutating func remove(path: String, interfaces: [String]) {
        for interface in interfaces { objects[path]?[interface] = nil }
        if objects[path]?.isEmpty == true { objects[path] = nil }
    }

    /// PropertiesChanged. Changes to an interface we have not seen are ignored, as the spec allows.
    public mutating func change(path: String, interface: String, changed: Properties, invalidated: [String]) {
        guard objects[path]?[interface] != nil else { return }
        for (name, value) in changed { objects[path]?[interface]?[name] = value }
        for name in invalidated { objects[path]?[interface]?[name] = nil }
    }

    public func properties(_ path: String, _ interface: String) -> Properties? { objects[path]?[interface] }

    public var adapters: [Adapter] { objects(with: BlueZNames.adapter).map { Adapter(path: $0.path, $0.properties) } }

    public var devices: [Device] { objects(with: BlueZNames.device).map { Device(path: $0.path, $0.properties) } }

    /// The objects that have `interface`, in path order.
    private func objects(with interface: String) -> [(path: String, properties: Properties)] {
        objects.compactMap { path, interfaces in interfaces[interface].map { (path, $0) } }.sorted { $0.path < $1.path }
    }

    /// The adapter `name` (e.g. `hci0`), or the first when nil; nil when there is none such.
    public func adapter(named name: String?) -> Adapter? {
        guard let name else { return adapters.first }
        return adapters.first { $0.name == name }
    }

    /// A device or one of its GATT objects: BlueZ names devices `{adapter}/dev_XX_XX_XX_XX_XX_XX`.
    public static func isDeviceObject(_ path: String) -> Bool { path.contains("/dev_") }

    public func device(at path: String) -> Device? {
        properties(path, BlueZNames.device).map { Device(path: path, $0) }
    }

    /// The devices `--device query` may mean (on the adapter at `adapterPath`, if given), as
    /// `monitor` and `doctor` both choose: the one with that address; else the name matches
    /// offering Heart Rate (0x180D), or all of them when none does (UUIDs not known yet).
    public func devices(matching query: String, on adapterPath: String? = nil) -> [Device] {
        let matches = devices.filter { (adapterPath == nil || $0.adapterPath == adapterPath) && $0.matches(query) }
        if let exact = matches.first(where: { $0.hasAddress(query) }) { return [exact] }
        let heartRate = matches.filter(\.offersHeartRate)
        return heartRate.isEmpty ? matches : heartRate
    }

    /// The characteristic `characteristic` inside a service `service` of the device at `devicePath`.
    public func characteristic(_ characteristic: AssignedNumber, in service: AssignedNumber, of devicePath: String) -> Characteristic? {
        self.characteristic(uuid: characteristic.uuid, inService: service.uuid, of: devicePath)
    }

    /// The same for 128-bit UUIDs (lower case, as BlueZ writes them), e.g. Polar's PMD service.
    public func characteristic(uuid: String, inService serviceUUID: String, of devicePath: String) -> Characteristic? {
        let prefix = devicePath + "/"
        for (path, interfaces) in objects where path.hasPrefix(prefix) {
            guard let properties = interfaces[BlueZNames.gattCharacteristic],
                  properties["UUID"]?.string?.lowercased() == uuid,
                  let servicePath = properties["Service"]?.string,
                  self.properties(servicePath, BlueZNames.gattService)?["UUID"]?.string?.lowercased() == serviceUUID
            else { continue }
            return Characteristic(path: path, properties)
        }
        return nil
    }
}

public struct Adapter: Equatable, Sendable {
    public let path: String
    public let isPowered: Bool

    init(path: String, _ properties: ObjectTree.Properties) {
        self.path = path
        isPowered = properties["Powered"]?.bool ?? false
    }

    /// `hci0` for `/org/bluez/hci0`.
    public var name: String { String(path.split(separator: "/").last ?? "") }
}

public struct Device: Equatable, Sendable {
    public let path: String
    public let adapterPath: String
    public let address: String
    /// The alias (which defaults to the advertised name), or nil when the device never said.
    public let name: String?
    /// Only present while discovery sees the device.
    public let rssi: Int?
    public let isPaired: Bool
    public let isTrusted: Bool
    public let isConnected: Bool
    public let areServicesResolved: Bool
    public let uuids: [String]

    init(path: String, _ properties: ObjectTree.Properties) {
        self.path = path
        adapterPath = properties["Adapter"]?.string ?? ""
        let address = properties["Address"]?.string ?? ""
        self.address = address
        let alias = properties["Alias"]?.string
        // The alias is the user's name for it, or the advertised name; BlueZ makes it the
        // address (with dashes) when there is neither, and that is no name.
        name = alias.flatMap { $0.replacingDashes == address ? nil : $0 } ?? properties["Name"]?.string
        rssi = properties["RSSI"]?.integer
        isPaired = properties["Paired"]?.bool ?? false
        isTrusted = properties["Trusted"]?.bool ?? false
        isConnected = properties["Connected"]?.bool ?? false
        areServicesResolved = properties["ServicesResolved"]?.bool ?? false
        uuids = properties["UUIDs"]?.strings ?? []
    }

    /// Offers the Heart Rate service (0x180D). Discovery filters are merged across clients, so
    /// every device is checked here, whatever filter we asked for.
    public var offersHeartRate: Bool { uuids.contains { AssignedNumber.heartRateService.matches($0) } }

    public var displayName: String { name ?? address }

    /// Connected, as far as bluetoothd has said: 5.66 may leave `Connected` false on a link it
    /// made (see `BlueZClient.refresh`), but `ServicesResolved` implies a link.
    public var hasLink: Bool { isConnected || areServicesResolved }

    /// `query` is this device's address, in any case.
    public func hasAddress(_ query: String) -> Bool { address.lowercased() == query.lowercased() }

    /// Matches `--device`: an address in any case, or a name or part of one, case-insensitively.
    public func matches(_ query: String) -> Bool {
        if hasAddress(query) { return true }
        guard let name else { return false }
        return name.lowercased().contains(query.lowercased())
    }
}

public struct Characteristic: Equatable, Sendable {
    public let path: String
    public let isNotifying: Bool
    /// The ATT MTU of the link, while connected (BlueZ 5.62+).
    public let mtu: Int?

    init(path: String, _ properties: ObjectTree.Properties) {
        self.path = path
        isNotifying = properties["Notifying"]?.bool ?? false
        mtu = properties["MTU"]?.integer
    }
}

extension String {
    fileprivate var replacingDashes: String { String(map { $0 == "-" ? ":" : $0 }) }
}
