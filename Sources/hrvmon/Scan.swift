import ArgumentParser
import BlueZ
import Platform
import Presentation
import SessionLog

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List nearby heart-rate sensors (devices offering the Heart Rate service, 0x180D).")

    @Option(parsing: .unconditional, help: "Seconds to scan.")
    var timeout: Double = 10

    @Option(help: "Adapter to scan with, e.g. hci0 (default: the first).")
    var adapter: String?

    @Option(help: "text or json.")
    var format: ReportFormat = .text

    func validate() throws {
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be more than 0 and at most 600 seconds") }
    }

    func run() throws {
        guard let (adapter, sensors) = try SystemBus().scan(adapter: adapter, timeout: timeout) else {
            return FileStream.printError("hrvmon: scan interrupted")
        }
        var output = FileStream.standardOutput
        output.write(format == .json ? Self.json(adapter, sensors) : Self.table(adapter, sensors, timeout: timeout))
        output.flush()
    }

    static func table(_ adapter: Adapter, _ sensors: [Device], timeout: Double) -> String {
        guard !sensors.isEmpty else {
            return "no heart-rate sensor found on \(adapter.name) in \(Formatting.fixed(timeout, digits: 0)) s: most straps advertise only while worn (moisten the electrodes)\n"
        }
        let rows = sensors.map { sensor in
            [sensor.address, sensor.name ?? "(no name)", sensor.rssi.map { "\($0) dBm" } ?? "not seen",
             sensor.isPaired ? "yes" : "no", sensor.isTrusted ? "yes" : "no"]
        }
        return Formatting.columns([["ADDRESS", "NAME", "RSSI", "PAIRED", "TRUSTED"]] + rows)
    }

    static func json(_ adapter: Adapter, _ sensors: [Device]) -> String {
        var object = JSONObject()
        object.add("adapter", adapter.name)
        object.add("sensors", sensors.map { sensor in
            var item = JSONObject()
            item.add("address", sensor.address)
            item.add("name", sensor.name)
            item.add("rssi", sensor.rssi)
            item.add("paired", sensor.isPaired)
            item.add("trusted", sensor.isTrusted)
            item.add("connected", sensor.isConnected)
            return item
        })
        return object.serialized + "\n"
    }
}
