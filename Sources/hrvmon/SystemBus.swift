import ArgumentParser
import BlueZ
import DBus
import Glibc

/// The system bus and bluetoothd on it, for `scan` and `monitor`.
struct SystemBus {
    let loop = EventLoop()
    let connection: Connection
    let client: BlueZClient

    init() throws {
        do {
            connection = try Connection.system(loop: loop)
        } catch {
            FileStream.printError("hrvmon: cannot reach the system D-Bus (\(error)): is dbus running? `systemctl status dbus`")
            throw ExitCode(1)
        }
        client = BlueZClient(connection: connection)
    }

    /// Runs the loop until `stop()`; SIGINT and SIGTERM call `interrupted` instead of killing us.
    func run(interrupted: @escaping () -> Void) {
        Interruption.install()
        let descriptor = Interruption.descriptor
        loop.watch(descriptor) { _ in
            var drain = [UInt8](repeating: 0, count: 64)
            while drain.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            interrupted()
        }
        loop.run()
        connection.close()
    }
}
