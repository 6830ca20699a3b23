import ArgumentParser
import BlueZ
import LiveSession
import Platform
import Presentation
import SessionLog
import UserData

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Monitor a heart-rate sensor live: every notification through the HRV, baseline and stress pipeline.",
        discussion: """
            Without --device: the sensor used last time, or the only one found by a scan. The link is kept \
            up: after a drop hrvmon reconnects at once (with back-off only after failures) and says what it is doing. Ctrl-C stops \
            notifications, disconnects and exits 0. On a terminal the session is a full-screen dashboard \
            (b breathe, n note, q quit, ? help); otherwise, or with --no-dashboard, one line per event. \
            With --lsl the beats and the session's markers are also published as Lab Streaming Layer streams \
            (liblsl is loaded at run time: liblsl.so.2 or $HRVMON_LIBLSL).
            """)

    @Option(help: "Sensor address (AA:BB:CC:DD:EE:FF) or name, or part of one.")
    var device: String?

    @Option(help: "Adapter, e.g. hci0 (default: the first).")
    var adapter: String?

    @OptionGroup var display: DisplayOptions

    @OptionGroup var sessionFile: SessionFileOptions

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Flag(help: "Receive notifications through an AcquireNotify socket (falls back to StartNotify when refused).")
    var acquire = false

    @Option(help: "Seconds to scan when no sensor is given or remembered.")
    var scanTimeout: Double = 10

    @OptionGroup var lsl: LSLOptions

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
        guard scanTimeout > 0, scanTimeout <= 600 else { throw ValidationError("--scan-timeout must be more than 0 and at most 600 seconds") }
    }

    func run() throws {
        let settings = try config.load()
        let lslLibrary = try lsl.library()
        let baseline = try badInputOnFailure { try DataDirectory.personalBaseline(settings) }
        let bus = try SystemBus()
        let query = try device ?? DataDirectory.lastSensor() ?? chooseByScanning(bus)

        let link = HeartRateLink(
            client: bus.client, loop: bus.loop,
            configuration: .init(device: query, adapter: adapter, acquire: acquire, settings: settings.link))
        let stop = { link.stop { bus.loop.stop() } }

        let start = WallClock.now()
        let started = EventLoop.now()
        let header = SessionHeader(
            start: start, source: "live", deviceAddress: query.isBluetoothAddress ? query.uppercased() : nil, baseline: baseline,
            settings: settings)
        let host = try startingSession {
            try LiveSessionHost(
                header, record: !sessionFile.noLog, at: sessionFile.log, display: display.display, title: "monitor", loop: bus.loop,
                clock: WallClock.now, stop: stop)
        }
        let run = host.run
        let publisher = lslLibrary.map { LSLPublisher(library: $0, timestamps: .live) }
        if let publisher { run.publishToLSL(publisher) }
        run.follow(link, now: WallClock.now)
        bus.connection.onDisconnect = {
            run.report(.notice("the system D-Bus went away; stopping"), at: WallClock.now())
            bus.loop.stop()
        }
        if let duration { bus.loop.schedule(after: duration, stop) }
        bus.onInterrupt = stop
        link.start()
        host.runUntilStopped { (WallClock.now(), EventLoop.now() - started) }
        publisher?.close()

        if host.recorder?.failed == true, settings.log.stopsOnError { throw ExitCode(1) }
        if let failure = host.keepRestingValues(measuredOn: WallClock.day(start)) {
            FileStream.printError("hrvmon: cannot add this session's resting values to the personal baseline: \(failure)")
        }
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
        guard Terminal.isTerminal(.input) else {
            throw badInput(ValidationError("\(sensors.count) heart-rate sensors found; choose one with --device:\n\(list)"))
        }
        FileStream.printError("\(sensors.count) heart-rate sensors found:\n\(list)\nwhich one? [1-\(sensors.count)] ")
        guard let answer = readLine(), let choice = Int(answer.trimming(.spaces)), sensors.indices.contains(choice - 1) else {
            throw badInput(ValidationError("no sensor chosen; pass --device ADDRESS"))
        }
        return sensors[choice - 1].address
    }
}

extension String {
    /// `AA:BB:CC:DD:EE:FF`.
    fileprivate var isBluetoothAddress: Bool {
        let parts = split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
