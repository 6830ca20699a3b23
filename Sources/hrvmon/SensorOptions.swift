import ArgumentParser
import BlueZ
import HRV
import LiveSession
import Platform
import Presentation
import SessionLog
import Settings
import UserData

/// The strap a live session streams from (`monitor`, `resonance`), and running the session on it.
struct SensorOptions: ParsableArguments {
    @Option(name: .customLong("device"), help: """
        Sensor address (AA:BB:CC:DD:EE:FF) or name, or part of one (default: the one used last). \
        `monitor` takes it more than once to follow several sensors at once.
        """)
    var devices: [String] = []

    @Option(help: "Adapter, e.g. hci0 (default: the first).")
    var adapter: String?

    @Flag(help: "Receive notifications through an AcquireNotify socket (falls back to StartNotify when refused).")
    var acquire = false

    @Flag(help: "Leave the strap's accelerometer off (it is started when the strap offers Polar's Measurement Data service).")
    var noMotion = false

    @Flag(help: "Start the strap's ECG stream too (Polar H10: 130 Hz, µV) and keep it in the session file.")
    var ecg = false

    @Option(parsing: .unconditional, help: "Seconds to scan when no sensor is given or remembered.")
    var scanTimeout: Double = 10

    func validate() throws {
        guard Set(devices.map { $0.uppercased() }).count == devices.count else {
            throw ValidationError("the same --device is given twice; give each sensor once")
        }
        guard scanTimeout > 0, scanTimeout <= 600 else { throw ValidationError("--scan-timeout must be more than 0 and at most 600 seconds") }
    }

    /// The sensor asked for (else the one used last, else a scan's) and a link to it on `bus`.
    func link(on bus: SystemBus, settings: Settings) throws -> (query: String, link: HeartRateLink) {
        let query = try devices.first ?? DataDirectory.lastSensor() ?? bus.chooseSensor(adapter: adapter, scanTimeout: scanTimeout)
        let link = HeartRateLink(
            client: bus.client, loop: bus.loop,
            configuration: linkConfiguration(query, settings))
        return (query, link)
    }

    /// Finds the sensor, connects and runs a live session until it is stopped (Ctrl-C, `q`,
    /// `duration`, or `prepare`'s own stop); `prepare` sees the host, the loop and the stop before
    /// the link starts. Returns the host, its session finished.
    func runSession(
        settings: Settings, baseline: Baseline?, display: SessionDisplay, record: Bool, log: String?, title: String,
        duration: Double?, prepare: (LiveSessionHost, EventLoop, @escaping () -> Void) -> Void = { _, _, _ in }
    ) throws -> LiveSessionHost {
        let bus = try SystemBus()
        let (query, link) = try link(on: bus, settings: settings)
        let stop = { link.stop { bus.loop.stop() } }

        let start = WallClock.now()
        let started = EventLoop.now()
        let header = SessionHeader(
            start: start, source: "live", deviceAddress: query.isBluetoothAddress ? query.uppercased() : nil, baseline: baseline,
            settings: settings)
        let host = try startingSession {
            try LiveSessionHost(
                header, record: record, at: log, display: display, title: title, loop: bus.loop, clock: WallClock.now, stop: stop)
        }
        let run = host.run
        run.follow(link, now: WallClock.now)
        bus.connection.onDisconnect = {
            run.report(.notice("the system D-Bus went away; stopping"), at: WallClock.now())
            bus.loop.stop()
        }
        if let duration { bus.loop.schedule(after: duration, stop) }
        bus.onInterrupt = stop
        prepare(host, bus.loop, stop)
        link.start()
        host.runUntilStopped { (WallClock.now(), EventLoop.now() - started) }
        return host
    }
}

extension SensorOptions {
    /// The link to `device` as the options and the configuration file ask.
    func linkConfiguration(_ device: String, _ settings: Settings) -> HeartRateLink.Configuration {
        var configuration = HeartRateLink.Configuration(device: device, adapter: adapter, acquire: acquire, settings: settings.link)
        configuration.motion = !noMotion
        configuration.ecg = ecg
        return configuration
    }

    /// For the commands that follow one sensor: more than one `--device` is a usage error.
    func requireOneDevice(_ command: String) throws {
        if devices.count > 1 { throw ValidationError("\(command) follows one sensor: give --device once (monitor takes several)") }
    }
}

extension String {
    /// `AA:BB:CC:DD:EE:FF`.
    var isBluetoothAddress: Bool {
        let parts = split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
