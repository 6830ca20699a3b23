import ArgumentParser
import BlueZ
import DBus
import Platform

/// The system bus and bluetoothd on it, for `scan` and `monitor`.
final class SystemBus {
    let loop = EventLoop()
    let connection: Connection
    let client: BlueZClient
    /// What SIGINT and SIGTERM do while the loop runs; by default, stop it.
    var onInterrupt: () -> Void

    init() throws {
        do {
            connection = try Connection.system(loop: loop)
        } catch {
            FileStream.printError("""
                hrvmon: cannot reach the system D-Bus (\(error)): hrvmon talks to bluetoothd through it.
                  On Debian: `sudo apt install dbus bluez`, then `sudo systemctl enable --now dbus bluetooth`;
                  `hrvmon doctor` checks the whole chain (bus, bluetoothd, adapter, rfkill, permissions).
                """)
            throw ExitCode(1)
        }
        client = BlueZClient(connection: connection)
        let loop = loop
        onInterrupt = { loop.stop() }
        Interruption.watch(on: loop) { [weak self] in self?.onInterrupt() }
    }

    /// bluetoothd through a connection of its own on the same loop: BlueZ keeps each connection's
    /// discovery and notification sessions apart, so a sensor's link can start and stop them
    /// without touching another's.
    func separateClient() throws -> BlueZClient {
        do {
            return BlueZClient(connection: try Connection.system(loop: loop))
        } catch {
            FileStream.printError("hrvmon: cannot open another connection to the system D-Bus: \(error)")
            throw ExitCode(1)
        }
    }

    /// Runs the loop until something stops it.
    func run() { loop.run() }

    /// Scans to the end and returns what was seen; nil when interrupted. A scan that cannot run
    /// (no bluetoothd, no adapter, adapter off) is explained on stderr with exit status 1.
    func scan(adapter: String?, timeout: Double) throws -> (adapter: Adapter, sensors: [Device])? {
        var outcome: SensorScan.Outcome?
        let scan = SensorScan(client: client, loop: loop, adapter: adapter, timeout: timeout)
        let loop = loop
        scan.run { result in
            outcome = result
            loop.stop()
        }
        withExtendedLifetime(scan) { run() }
        switch outcome {
        case .found(let adapter, let sensors):
            return (adapter, sensors)
        case .failed(let status):
            FileStream.printError("hrvmon: \(status.detail)")
            throw ExitCode(1)
        case nil:
            return nil
        }
    }
}
