import DBus

/// bluetoothd as seen over one bus connection: the object tree kept current, whether bluetoothd is
/// there at all, characteristic values as they change, and method calls.
public final class BlueZClient {
    public enum Change {
        /// The tree was (re)loaded from GetManagedObjects.
        case loaded
        /// bluetoothd is not on the bus (not running, or not allowed to us).
        case unavailable(DBusError)
        /// bluetoothd left the bus: every session, filter and descriptor it gave us is gone.
        case ownerLost
        case changed(path: String)
        case removed(path: String, interfaces: [String])
        /// A characteristic's Value changed: for a notifying one, that is a notification.
        case value(path: String, bytes: [UInt8])
    }

    public let connection: Connection
    public private(set) var tree = ObjectTree()
    public private(set) var isLoaded = false
    private var loadGeneration = 0
    private var isStarted = false
    public var onChange: (Change) -> Void = { _ in }

    public init(connection: Connection) {
        self.connection = connection
    }

    /// Subscribes to the signals, then loads the tree: in this order, or the first events are lost.
    /// Starting again only tells a new `onChange` what is already known.
    public func start() {
        guard !isStarted else {
            if isLoaded { onChange(.loaded) }
            return
        }
        isStarted = true
        connection.addMatch(MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            firstArgument: BlueZNames.service))
        connection.addMatch(MatchRule(sender: BlueZNames.service, interface: BlueZNames.objectManager))
        connection.addMatch(MatchRule(
            sender: BlueZNames.service, interface: BlueZNames.properties, member: "PropertiesChanged",
            pathNamespace: "/org/bluez"))
        connection.onSignal { [weak self] in self?.handle($0) }
        load()
    }

    private func load() {
        loadGeneration += 1
        let generation = loadGeneration
        Self.managedObjects(on: connection) { [weak self] result in
            guard let self, generation == self.loadGeneration else { return }
            switch result {
            case .success(let tree):
                self.tree = tree
                self.isLoaded = true
                self.onChange(.loaded)
            case .failure(let error):
                self.isLoaded = false
                self.tree.removeAll()
                self.onChange(.unavailable(error))
            }
        }
    }

    /// bluetoothd's objects, from GetManagedObjects: how the client loads its tree, and all that
    /// `doctor` asks.
    public static func managedObjects(
        on connection: Connection, timeout: Double = 25, reply: @escaping (Result<ObjectTree, DBusError>) -> Void
    ) {
        connection.call(
            destination: BlueZNames.service, path: "/", interface: BlueZNames.objectManager, member: "GetManagedObjects",
            timeout: timeout
        ) { result in
            reply(result.map { arguments in
                var tree = ObjectTree()
                if let managed = arguments.first { tree.replace(with: managed) }
                return tree
            })
        }
    }

    private func handle(_ message: Message) {
        guard let interface = message.interface, let member = message.member, let arguments = message.arguments else { return }
        switch (interface, member) {
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard arguments.count == 3, arguments[0].string == BlueZNames.service else { return }
            if arguments[1].string?.isEmpty == false {
                loadGeneration += 1
                isLoaded = false
                tree.removeAll()
                onChange(.ownerLost)
            }
            if arguments[2].string?.isEmpty == false { load() }
        case (BlueZNames.objectManager, "InterfacesAdded"):
            guard isLoaded, arguments.count == 2, let path = arguments[0].string else { return }
            tree.add(path: path, interfaces: arguments[1])
            onChange(.changed(path: path))
        case (BlueZNames.objectManager, "InterfacesRemoved"):
            guard isLoaded, arguments.count == 2, let path = arguments[0].string, let interfaces = arguments[1].strings else { return }
            tree.remove(path: path, interfaces: interfaces)
            onChange(.removed(path: path, interfaces: interfaces))
        case (BlueZNames.properties, "PropertiesChanged"):
            guard isLoaded, arguments.count == 3, let path = message.path, let changedInterface = arguments[0].string,
                  var changed = arguments[1].dictionary
            else { return }
            // Values are passed on, not kept: a notification is an event, not state.
            let value = changedInterface == BlueZNames.gattCharacteristic ? changed.removeValue(forKey: "Value") : nil
            if !changed.isEmpty || arguments[2].strings?.isEmpty == false {
                tree.change(path: path, interface: changedInterface, changed: changed, invalidated: arguments[2].strings ?? [])
                onChange(.changed(path: path))
            }
            if let bytes = value?.bytes { onChange(.value(path: path, bytes: bytes)) }
        default:
            break
        }
    }

    /// Reads an object's properties back (GetAll) into the tree, then reports `.changed(path)`.
    /// For state BlueZ holds but did not announce: bluetoothd 5.66 can mark a device connected
    /// without emitting `Connected` (src/device.c `device_add_connection`: "Device … is already
    /// connected" when its connect callback ran before the kernel's event). Replies and signals
    /// come in bluetoothd's order, so the reply is as current as the signals before it.
    public func refresh(_ path: String, _ interface: String) {
        let generation = loadGeneration
        call(path, BlueZNames.properties, "GetAll", [.string(interface)]) { [weak self] result in
            guard let self, generation == self.loadGeneration, case .success(let arguments) = result,
                  let properties = arguments.first?.dictionary
            else { return }
            self.tree.change(path: path, interface: interface, changed: properties, invalidated: [])
            self.onChange(.changed(path: path))
        }
    }

    /// A method call on a BlueZ object.
    public func call(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [], timeout: Double = 25,
        reply: @escaping (Result<[DBusValue], DBusError>) -> Void = { _ in }
    ) {
        connection.call(
            destination: BlueZNames.service, path: path, interface: interface, member: member, arguments: arguments,
            timeout: timeout, reply: reply)
    }
}
