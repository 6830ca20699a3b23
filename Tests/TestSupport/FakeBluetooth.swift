import Foundation

/// A private D-Bus "system" bus with the fake bluetoothd of Tests/TestSupport/FakeBlueZ on it.
///
/// Point the code under test at it with `environment` (DBUS_SYSTEM_BUS_ADDRESS) and drive the
/// fake with `command(_:)` (see Tests/TestSupport/FakeBlueZ/README.md for the command reference).
/// Every wait has a deadline: a test may fail, never hang. Pipes from the daemons are read
/// line by line with poll(2), never to end of file.
public final class FakeBluetooth: @unchecked Sendable {
    // MARK: Configuration (written as the fake's JSON config)

    public struct Adapter: Codable, Sendable {
        public var name = "hci0"
        public var address = "00:1A:7D:DA:71:13"
        public var powered = true

        public init(name: String = "hci0", address: String = "00:1A:7D:DA:71:13", powered: Bool = true) {
            self.name = name
            self.address = address
            self.powered = powered
        }
    }

    public struct Device: Codable, Sendable {
        public var adapter = "hci0"
        public var address: String
        /// "public" or "random"; a random address whose two top bits are 00 or 01 is private
        /// and stays temporary even after Connect (removed temporaryTimeoutMs after disconnect).
        public var addressType = "public"
        public var name: String?
        public var rssi = -60
        public var paired = false
        public var trusted = false
        public var bonded: Bool?
        /// 16-bit GATT service UUIDs, e.g. "180d" (Heart Rate), "180f" (Battery), "180a", "1812".
        public var services = ["180d", "180f"]
        /// UUIDs in the advertisement (what discovery filters match); default: first service.
        public var advertisedUUIDs: [String]?
        /// Body Sensor Location byte (0x2A38 is exported only when set); 1 = chest.
        public var bodySensorLocation: Int?
        /// Battery Level percentage (0x2A19 is exported only when set).
        public var battery: Int?
        public var inRange = true
        /// Known to bluetoothd at start (as if loaded from /var/lib/bluetooth): exported before
        /// any discovery, not temporary.
        public var knownAtStart = false
        public var connectDelayMs = 100
        public var resolveDelayMs = 300
        /// How long an out-of-range Connect takes to fail; nil = the config-wide value.
        public var connectTimeoutMs: Int?
        public var mtu = 247
        public var appearance: Int?
        public var icon: String?
        public var manufacturer: String?
        public var model: String?
        /// false: bluetoothd 5.66's connect race, where the link is made silently and
        /// `Connected = true` is never emitted (ServicesResolved still follows).
        public var announceConnected = true
        /// How long after the link is up (and notifications flow) `Connected = true` is emitted.
        public var connectedSignalDelayMs = 0
        /// Polar's Measurement Data service beside 0x180D, as the H10 has it (FakeBlueZ/pmd_strap.py).
        public var pmd = false
        /// How long after a start command the strap's first frame comes (25-30 s with some
        /// Linux stacks: polar-ble-sdk #414, #424).
        public var pmdStartDelayMs = 0
        /// How much later than other replies a start's reply comes (as a client that reads it
        /// late, starved of CPU, sees it).
        public var pmdStartReplyDelayMs = 0
        /// How many of the first feature reads fail (org.bluez.Error.Failed: bluetoothd gave up
        /// on a slow strap); counted over the fake's life, not per connection.
        public var pmdFailedFeatureReads = 0

        public enum CodingKeys: String, CodingKey {
            case adapter, address, addressType = "address_type", name, rssi, paired, trusted, bonded
            case services, advertisedUUIDs = "advertised_uuids"
            case bodySensorLocation = "body_sensor_location", battery
            case inRange = "in_range", knownAtStart = "known_at_start"
            case connectDelayMs = "connect_delay_ms", resolveDelayMs = "resolve_delay_ms"
            case connectTimeoutMs = "connect_timeout_ms", mtu, appearance, icon, manufacturer, model
            case announceConnected = "announce_connected", connectedSignalDelayMs = "connected_signal_delay_ms"
            case pmd, pmdStartDelayMs = "pmd_start_delay_ms", pmdStartReplyDelayMs = "pmd_start_reply_delay_ms"
            case pmdFailedFeatureReads = "pmd_failed_feature_reads"
        }

        /// A Polar H10 strap, unpaired, in range, worn on the chest, battery 87 %.
        public static let polarH10 = Device(
            address: "A0:9E:1A:00:00:01", name: "Polar H10 A1B2C3D4", rssi: -58,
            services: ["180d", "180f", "180a"], advertisedUUIDs: ["180d"],
            bodySensorLocation: 1, battery: 87, mtu: 232,
            manufacturer: "Polar Electro Oy", model: "H10")

        /// The same H10 with its Polar Measurement Data service (accelerometer and ECG streams).
        public static let polarH10WithPMD = {
            var strap = polarH10
            strap.pmd = true
            return strap
        }()

        /// A second strap for two-sensor sessions: a Garmin HRM-Pro, unpaired, in range, on the
        /// chest, battery 64 %.
        public static let hrmPro = Device(
            address: "C4:7C:8D:6A:00:02", name: "HRM-Pro:123456", rssi: -64,
            services: ["180d", "180f", "180a"], advertisedUUIDs: ["180d"],
            bodySensorLocation: 1, battery: 64, mtu: 185,
            manufacturer: "Garmin International", model: "HRM-Pro")

        /// A paired keyboard bluetoothd already knows: a device without 0x180D that a heart-rate
        /// client must ignore. Its HID service 0x1812 is claimed by BlueZ and never exported.
        public static let mxKeys = Device(
            address: "D2:3C:4E:5A:6B:7C", addressType: "random", name: "MX Keys", rssi: -71,
            paired: true, trusted: true, services: ["1812", "180f", "180a"],
            advertisedUUIDs: ["1812"], battery: 55, knownAtStart: true,
            appearance: 961, icon: "input-keyboard", manufacturer: "Logitech", model: "MX Keys")

        public init(
            adapter: String = "hci0", address: String, addressType: String = "public", name: String? = nil,
            rssi: Int = -60, paired: Bool = false, trusted: Bool = false, bonded: Bool? = nil,
            services: [String] = ["180d", "180f"], advertisedUUIDs: [String]? = nil, bodySensorLocation: Int? = nil,
            battery: Int? = nil, inRange: Bool = true, knownAtStart: Bool = false, connectDelayMs: Int = 100,
            resolveDelayMs: Int = 300, connectTimeoutMs: Int? = nil, mtu: Int = 247, appearance: Int? = nil,
            icon: String? = nil, manufacturer: String? = nil, model: String? = nil, announceConnected: Bool = true,
            connectedSignalDelayMs: Int = 0
        ) {
            self.adapter = adapter
            self.address = address
            self.addressType = addressType
            self.name = name
            self.rssi = rssi
            self.paired = paired
            self.trusted = trusted
            self.bonded = bonded
            self.services = services
            self.advertisedUUIDs = advertisedUUIDs
            self.bodySensorLocation = bodySensorLocation
            self.battery = battery
            self.inRange = inRange
            self.knownAtStart = knownAtStart
            self.connectDelayMs = connectDelayMs
            self.resolveDelayMs = resolveDelayMs
            self.connectTimeoutMs = connectTimeoutMs
            self.mtu = mtu
            self.appearance = appearance
            self.icon = icon
            self.manufacturer = manufacturer
            self.model = model
            self.announceConnected = announceConnected
            self.connectedSignalDelayMs = connectedSignalDelayMs
        }
    }

    /// Every delay of the fake stretched or shrunk by up to `fraction`, from a seeded generator.
    public struct Jitter: Codable, Sendable {
        public var seed: Int
        public var fraction = 0.5

        public init(seed: Int, fraction: Double = 0.5) {
            self.seed = seed
            self.fraction = fraction
        }
    }

    public struct Config: Codable, Sendable {
        public var adapters = [Adapter()]
        public var devices: [Device] = [.polarH10, .mxKeys]
        /// BlueZ TemporaryTimeout (30 s): unconnected discovered devices disappear this long
        /// after they were last seen.
        public var temporaryTimeoutMs = 30_000
        /// BlueZ DISCONNECT_TIMER (2 s) between Disconnect() and the link going down.
        public var disconnectTimerMs = 2_000
        public var connectTimeoutMs = 2_000
        public var advertisingIntervalMs = 500
        /// Latency of one ATT request (CCC write, read).
        public var attDelayMs = 20
        /// After (re)start the name is owned first; adapters appear this much later, unpowered,
        /// then powered (as bluetoothd does while it talks to the kernel).
        public var startupDelayMs = 50
        /// main.conf [GATT] Cache: "always" (default: GATT objects survive disconnects),
        /// "yes" (only for paired devices) or "no".
        public var gattCache = "always"
        public var jitter: Jitter?

        public init() {}

        public enum CodingKeys: String, CodingKey {
            case adapters, devices, jitter
            case temporaryTimeoutMs = "temporary_timeout_ms", disconnectTimerMs = "disconnect_timer_ms"
            case connectTimeoutMs = "connect_timeout_ms", advertisingIntervalMs = "advertising_interval_ms"
            case attDelayMs = "att_delay_ms", startupDelayMs = "startup_delay_ms", gattCache = "gatt_cache"
        }
    }

    public typealias Failure = TestChild.Failure

    public static let polar = Device.polarH10.address
    public static let hrmPro = Device.hrmPro.address
    public static let directory = Bundle.module.url(forResource: "FakeBlueZ", withExtension: nil)!
    public static let python = "/usr/bin/python3"

    public let config: Config
    /// The private bus address, as dbus-daemon printed it.
    public var address: String { bus?.address ?? "" }
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }
    public let temporaryDirectory: String

    private let lock = NSLock()
    private let busConfig: String
    private let timeout: TimeInterval
    private var bus: PrivateBus?
    private var fake: Process?
    private var fakeInput: FileHandle?
    private var fakeOutput: LineReader?
    private var stopped = false

    /// Starts a private bus (configured by `busConfig` in Tests/TestSupport/FakeBlueZ) and the fake on it;
    /// returns once the fake printed `ready`.
    public init(_ config: Config = Config(), busConfig: String = "bus.conf", timeout: TimeInterval = 10) throws {
        signal(SIGPIPE, SIG_IGN)
        self.config = config
        self.busConfig = busConfig
        self.timeout = timeout
        temporaryDirectory = try TestChild.temporaryDirectory("hrvmon-bt")
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(config).write(to: URL(fileURLWithPath: configPath))
            bus = try PrivateBus(
                socket: temporaryDirectory + "/system_bus_socket", log: busLogPath, configuration: busConfig, timeout: timeout)
            try startFake()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    public var configPath: String { temporaryDirectory + "/config.json" }
    public var fakeLogPath: String { temporaryDirectory + "/fake_bluetoothd.log" }
    public var busLogPath: String { temporaryDirectory + "/dbus-daemon.log" }

    /// Everything the fake wrote to stderr so far (all runs).
    public var fakeLog: String { (try? String(contentsOfFile: fakeLogPath, encoding: .utf8)) ?? "" }
    public var busLog: String { (try? String(contentsOfFile: busLogPath, encoding: .utf8)) ?? "" }

    // MARK: Control channel

    /// Sends one control line and returns the fake's JSON reply (`ok` is false for a refused
    /// command; use `run` to throw instead). Throws if the fake does not answer in time.
    public func command(_ line: String, timeout: TimeInterval = 5) throws -> [String: Any] {
        try lock.withLock {
            guard let input = fakeInput, let output = fakeOutput, let fake, fake.isRunning else {
                throw Failure(description: "fake bluetoothd is not running; command '\(line)'\n\(fakeLog)")
            }
            try TestChild.send(line + "\n", to: input.fileDescriptor)
            let reply = try TestChild.nextLine(
                output, of: fake, before: Date().addingTimeInterval(timeout), "fake bluetoothd on '\(line)'", log: fakeLog)
            guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
            else { throw Failure(description: "fake bluetoothd answered '\(line)' with '\(reply)'") }
            return object
        }
    }

    /// `command`, throwing unless the reply has `ok: true`.
    @discardableResult
    public func run(_ line: String, timeout: TimeInterval = 5) throws -> [String: Any] {
        let reply = try command(line, timeout: timeout)
        guard reply["ok"] as? Bool == true else {
            throw Failure(description: "fake bluetoothd refused '\(line)': \(reply["error"] ?? reply)")
        }
        return reply
    }

    /// One Heart Rate Measurement notification; returns how many subscribers got it.
    @discardableResult
    public func notify(_ bytes: [UInt8], device: String = FakeBluetooth.polar) throws -> Int {
        try run("notify \(device) \(Packet.hex(bytes))")["delivered"] as? Int ?? 0
    }

    public func drop(_ device: String = FakeBluetooth.polar) throws { try run("drop \(device)") }
    public func range(_ inRange: Bool, device: String = FakeBluetooth.polar) throws {
        try run("range \(device) \(inRange ? "on" : "off")")
    }
    /// Out of range, and in the same instant another client's Connect goes out: it is pending
    /// before hrvmon can have heard of the loss, so hrvmon's own Connect meets it.
    public func outOfRangeWhileAnotherConnects(_ device: String = FakeBluetooth.polar) throws {
        try run("range \(device) off connect")
    }
    public func power(_ on: Bool, adapter: String = "hci0") throws { try run("power \(adapter) \(on ? "on" : "off")") }
    /// ServicesResolved false, then true again; `refresh`: the GATT objects (and every
    /// notification session) are dropped and exported anew, as after a Service Changed.
    public func flap(refresh: Bool = false, device: String = FakeBluetooth.polar) throws {
        try run("flap \(device)" + (refresh ? " refresh" : ""))
    }
    /// The controller unplugged (`false`) or plugged in again.
    public func plug(_ plugged: Bool, adapter: String = "hci0") throws { try run("adapter \(adapter) \(plugged ? "add" : "remove")") }
    public func rfkill(blocked: Bool, adapter: String = "hci0") throws { try run("rfkill \(adapter) \(blocked ? "block" : "unblock")") }
    /// Another client starts connecting the device.
    public func state(_ device: String = FakeBluetooth.polar) throws -> [String: Any] { try run("state \(device)") }
    /// The next call of `method` (e.g. "StartNotify") fails with this D-Bus error.
    public func fail(_ method: String, with error: String, message: String? = nil) throws {
        try run("fail \(method) \(error)" + (message.map { " " + $0 } ?? ""))
    }
    public func sessions(_ device: String = FakeBluetooth.polar) throws -> [String: Any] { try run("sessions \(device)") }
    /// The PMD strap's state: `streams` running, `writes` (each `hex` and whether `indications`
    /// were on), `starts`, `stops`, `frames` per stream.
    public func measurementData(_ device: String = FakeBluetooth.polar) throws -> [String: Any] { try run("pmd \(device) state") }
    /// Every sample the PMD strap delivered, per stream ("acc", "ecg"): its time on the monotonic
    /// clock (LSL's), then its values as the frame carried them.
    public func measurementDataSent(_ device: String = FakeBluetooth.polar) throws -> [String: [[Double]]] {
        try run("pmd \(device) sent").mapValues { ($0 as? [[Any]] ?? []).map { $0.map { ($0 as? NSNumber)?.doubleValue ?? .nan } } }
    }
    /// What the strap's accelerometer feels: "still", "walking" or "lying".
    public func motion(_ kind: String, device: String = FakeBluetooth.polar) throws { try run("pmd \(device) motion \(kind)") }
    /// The strap stops a stream ("acc", "ecg") by itself and says so.
    public func strapStops(_ stream: String, device: String = FakeBluetooth.polar) throws { try run("pmd \(device) stop \(stream)") }

    // MARK: Lifecycle

    /// bluetoothd restart: SIGTERM the fake (it powers down and exits, org.bluez loses its owner),
    /// then start it again with the same configuration on the same bus.
    public func restart() throws {
        try lock.withLock {
            stopFake()
            try startFake()
        }
    }

    /// Stops the fake and the bus and removes the temporary directory. Idempotent.
    public func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            stopFake()
            bus?.stop()
            bus = nil
            try? FileManager.default.removeItem(atPath: temporaryDirectory)
        }
    }

    // MARK: Private

    public func startFake() throws {
        let script = Self.directory.appendingPathComponent("fake_bluetoothd.py").path
        var environment = ProcessInfo.processInfo.environment
        for key in ["PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP"] { environment[key] = nil }
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        let (process, input, reader) = try TestChild.spawn(
            Self.python, [script, "--bus", address, "--config", configPath], environment: environment, log: fakeLogPath)
        fake = process
        fakeInput = input
        fakeOutput = reader
        let line = try TestChild.nextLine(reader, of: process, before: Date().addingTimeInterval(timeout), "fake bluetoothd starting", log: fakeLog)
        guard line == "ready" else {
            throw Failure(description: "fake bluetoothd printed '\(line)' instead of ready\n\(fakeLog)")
        }
    }

    public func stopFake() {
        if let fake { TestChild.terminate(fake, grace: 3) }
        try? fakeInput?.close()
        fakeOutput?.close()
        fake = nil
        fakeInput = nil
        fakeOutput = nil
    }

}
