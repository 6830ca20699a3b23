import ArgumentParser
import BlueZ
import Foundation
import DBus
import Glibc
import HRV
import HeartRateProtocol
import Monitor
import Settings

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Monitor a heart-rate sensor live: every notification through the HRV, baseline and stress pipeline.",
        discussion: """
            Without --device: the sensor used last time, or the only one found by a scan. The link is kept \
            up: after a drop hrvmon reconnects with back-off and says what it is doing. Ctrl-C stops \
            notifications, disconnects and exits 0.
            """)

    @Option(help: "Sensor address (AA:BB:CC:DD:EE:FF) or name, or part of one.")
    var device: String?

    @Option(help: "Adapter, e.g. hci0 (default: the first).")
    var adapter: String?

    @Option(help: "text or jsonl (one JSON object per line; see README).")
    var format: MonitorFormat = .text

    @Option(help: "Write the session as JSON Lines to this file (created 0600).")
    var log: String?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(help: "Receive notifications through an AcquireNotify socket (falls back to StartNotify when refused).")
    var acquire = false

    @Option(help: "Seconds to scan when no sensor is given or remembered.")
    var scanTimeout: Double = 10

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
        guard scanTimeout > 0, scanTimeout <= 600 else { throw ValidationError("--scan-timeout must be more than 0 and at most 600 seconds") }
    }

    func run() throws {
        let settings = try config.load()
        let logFile = try log.map { try OutputFile.create($0, appending: true, mode: 0o600) }
        let bus = try SystemBus()
        let query = try device ?? DataDirectory.lastSensor() ?? chooseByScanning(bus)

        var linkConfiguration = HeartRateLink.Configuration(device: query)
        linkConfiguration.adapter = adapter
        linkConfiguration.acquire = acquire
        linkConfiguration.reconnectInitial = settings.link.reconnectInitial
        linkConfiguration.reconnectMaximum = settings.link.reconnectMaximum
        linkConfiguration.watchdog = settings.link.watchdog
        linkConfiguration.resolveTimeout = settings.link.resolveTimeout
        let link = HeartRateLink(client: bus.client, loop: bus.loop, configuration: linkConfiguration)

        var session = LiveSession(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: try DataDirectory.personalBaseline(settings)))
        var writer = LiveWriter(format: format, log: logFile)
        let started = EventLoop.now()
        var rememberedAddress: String?
        var sensor: Device?

        link.onEvent = { event in
            switch event {
            case .notification(let bytes):
                session.receive(bytes, at: WallClock.now()) { writer.write($0) }
            case .gap:
                session.breakContinuity { writer.write($0) }
            case .status(let status):
                writer.link(status)
                if status.state == .connected, let sensor, rememberedAddress != sensor.address {
                    rememberedAddress = sensor.address
                    do { try DataDirectory.rememberSensor(sensor.address) } catch { writer.notice("cannot remember the sensor: \(error)") }
                }
            case .device(let device):
                sensor = device
                writer.sensor(device)
            case .bodySensorLocation(let byte):
                let location = (try? BodySensorLocation(parsing: [byte]))?.description ?? "reserved value \(byte)"
                writer.sensorDetail(text: "worn on the \(location)") { $0.add("body_sensor_location", location) }
            case .batteryLevel(let percent):
                writer.sensorDetail(text: "battery \(percent) %") { $0.add("battery_pct", percent) }
            case .notice(let message):
                writer.notice(message)
            }
        }
        let stop = { link.stop { bus.loop.stop() } }
        bus.connection.onDisconnect = {
            writer.notice("the system D-Bus went away; stopping")
            bus.loop.stop()
        }
        if let duration { bus.loop.schedule(after: duration, stop) }
        bus.onInterrupt = stop
        link.start()
        bus.run()

        session.finish { writer.write($0) }
        writer.summary(session, seconds: EventLoop.now() - started)
        writer.close()
    }

    /// Scans, then: the only sensor found; a choice on a terminal; the list and exit 2 otherwise.
    private func chooseByScanning(_ bus: SystemBus) throws -> String {
        FileStream.printError("no sensor given or remembered: scanning for \(Formatting.fixed(scanTimeout, digits: 0)) s…")
        guard let (adapter, sensors) = try bus.scan(adapter: adapter, timeout: scanTimeout) else { throw ExitCode(0) }
        let seen = sensors.filter { $0.rssi != nil }
        let candidates = seen.isEmpty ? sensors : seen
        switch candidates.count {
        case 0:
            FileStream.printError(Scan.table(adapter, [], timeout: scanTimeout) + "or pass --device ADDRESS")
            throw ExitCode(1)
        case 1:
            return candidates[0].address
        default:
            return try ask(candidates)
        }
    }

    private func ask(_ sensors: [Device]) throws -> String {
        let list = sensors.enumerated().map { "  \($0.offset + 1). \($0.element.displayName)  \($0.element.address)\($0.element.rssi.map { "  \($0) dBm" } ?? "")" }
            .joined(separator: "\n")
        guard isatty(STDIN_FILENO) == 1 else {
            throw badInput(ValidationError("\(sensors.count) heart-rate sensors found; choose one with --device:\n\(list)"))
        }
        FileStream.printError("\(sensors.count) heart-rate sensors found:\n\(list)\nwhich one? [1-\(sensors.count)] ")
        guard let answer = readLine(), let choice = Int(answer.trimmingCharacters(in: .whitespaces)), sensors.indices.contains(choice - 1) else {
            throw badInput(ValidationError("no sensor chosen; pass --device ADDRESS"))
        }
        return sensors[choice - 1].address
    }
}
