import BlueZ
import DBus

/// What the system bus tells this user about bluetoothd.
struct BusObservation {
    enum Owner: Equatable {
        /// org.bluez has an owner; its process ID when the bus said.
        case present(processID: UInt32?)
        case absent
    }

    /// Why the bus could not be reached; nil when connected.
    var connectionError: DBusError?
    /// Whether org.bluez has an owner; nil when the bus was not reached.
    var owner: Owner?
    /// bluetoothd's answer to GetManagedObjects; nil when not asked (no owner).
    var objects: Result<ObjectTree, DBusError>?

    /// Asks the bus, then bluetoothd, in turn; each call gives up after `timeout` seconds, so a
    /// hung bluetoothd costs at most a few seconds. (Connecting itself is libdbus's blocking
    /// Hello, which fails at once when nothing listens.)
    static func observe(timeout: Double) -> BusObservation {
        let loop = EventLoop()
        let connection: Connection
        do {
            connection = try Connection.system(loop: loop)
        } catch {
            return BusObservation(connectionError: error)
        }
        defer { connection.close() }

        func ask(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) -> Result<[DBusValue], DBusError> {
            var answer: Result<[DBusValue], DBusError>?
            connection.call(destination: destination, path: path, interface: interface, member: member, arguments: arguments, timeout: timeout) {
                answer = $0
                loop.stop()
            }
            // The reply, an error or libdbus's own NoReply after `timeout` stops the loop.
            while answer == nil { loop.run() }
            return answer!
        }

        let bus = ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus")
        guard case .success = ask(bus.0, bus.1, bus.2, "GetNameOwner", [.string(BlueZNames.service)]) else {
            return BusObservation(owner: .absent)
        }
        let processID = (try? ask(bus.0, bus.1, bus.2, "GetConnectionUnixProcessID", [.string(BlueZNames.service)]).get())?
            .first?.integer.flatMap { UInt32(exactly: $0) }
        let objects = ask(BlueZNames.service, "/", BlueZNames.objectManager, "GetManagedObjects").map { arguments in
            var tree = ObjectTree()
            if let managed = arguments.first { tree.replace(with: managed) }
            return tree
        }
        return BusObservation(owner: .present(processID: processID), objects: objects)
    }
}
