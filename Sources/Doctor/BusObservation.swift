import BlueZ
import DBus
import Platform

/// What the system bus tells this user about bluetoothd.
public struct BusObservation {
    public enum Owner: Equatable {
        /// org.bluez has an owner; its process ID when the bus said.
        case present(processID: UInt32?)
        case absent
    }

    /// Why the bus could not be reached; nil when connected.
    public var connectionError: DBusError?
    /// Whether org.bluez has an owner; nil when the bus was not reached.
    public var owner: Owner?
    /// bluetoothd's answer to GetManagedObjects; nil when not asked (no owner).
    public var objects: Result<ObjectTree, DBusError>?

    /// Asks the bus, then bluetoothd, in turn; each call gives up after `timeout` seconds, so a
    /// hung bluetoothd costs at most a few seconds. (Connecting itself is libdbus's blocking
    /// Hello, which fails at once when nothing listens.)
    public static func observe(timeout: Double) -> BusObservation {
        let loop = EventLoop()
        let connection: Connection
        do {
            connection = try Connection.system(loop: loop)
        } catch {
            return BusObservation(connectionError: error)
        }
        defer { connection.close() }

        // The reply, an error or libdbus's own NoReply after `timeout` ends each wait.
        func askBus(_ member: String) -> Result<[DBusValue], DBusError> {
            loop.wait { answer in
                connection.call(
                    destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: member,
                    arguments: [.string(BlueZNames.service)], timeout: timeout, reply: answer)
            }
        }

        guard case .success = askBus("GetNameOwner") else {
            return BusObservation(owner: .absent)
        }
        let processID = (try? askBus("GetConnectionUnixProcessID").get())?.first?.integer.flatMap { UInt32(exactly: $0) }
        let objects = loop.wait { BlueZClient.managedObjects(on: connection, timeout: timeout, reply: $0) }
        return BusObservation(owner: .present(processID: processID), objects: objects)
    }
}
