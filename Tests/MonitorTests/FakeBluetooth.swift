import Foundation

/// A private D-Bus "system" bus with the fake bluetoothd of Tests/FakeBlueZ on it.
///
/// Point the code under test at it with `environment` (DBUS_SYSTEM_BUS_ADDRESS) and drive the
/// fake with `command(_:)` (see Tests/FakeBlueZ/README.md for the command reference).
/// Every wait has a deadline: a test may fail, never hang. Pipes from the daemons are read
/// line by line with poll(2), never to end of file.
final class FakeBluetooth: @unchecked Sendable {
    // MARK: Configuration (written as the fake's JSON config)

    struct Adapter: Codable, Sendable {
        var name = "hci0"
        var address = "00:1A:7D:DA:71:13"
        var powered = true
    }

    struct Device: Codable, Sendable {
        var adapter = "hci0"
        var address: String
        /// "public" or "random"; a random address whose two top bits are 00 or 01 is private
        /// and stays temporary even after Connect (removed temporaryTimeoutMs after disconnect).
        var addressType = "public"
        var name: String?
        var rssi = -60
        var paired = false
        var trusted = false
        var bonded: Bool?
        /// 16-bit GATT service UUIDs, e.g. "180d" (Heart Rate), "180f" (Battery), "180a", "1812".
        var services = ["180d", "180f"]
        /// UUIDs in the advertisement (what discovery filters match); default: first service.
        var advertisedUUIDs: [String]?
        /// Body Sensor Location byte (0x2A38 is exported only when set); 1 = chest.
        var bodySensorLocation: Int?
        /// Battery Level percentage (0x2A19 is exported only when set).
        var battery: Int?
        var inRange = true
        /// Known to bluetoothd at start (as if loaded from /var/lib/bluetooth): exported before
        /// any discovery, not temporary.
        var knownAtStart = false
        var connectDelayMs = 100
        var resolveDelayMs = 300
        /// How long an out-of-range Connect takes to fail; nil = the config-wide value.
        var connectTimeoutMs: Int?
        var mtu = 247
        var appearance: Int?
        var icon: String?
        var manufacturer: String?
        var model: String?

        enum CodingKeys: String, CodingKey {
            case adapter, address, addressType = "address_type", name, rssi, paired, trusted, bonded
            case services, advertisedUUIDs = "advertised_uuids"
            case bodySensorLocation = "body_sensor_location", battery
            case inRange = "in_range", knownAtStart = "known_at_start"
            case connectDelayMs = "connect_delay_ms", resolveDelayMs = "resolve_delay_ms"
            case connectTimeoutMs = "connect_timeout_ms", mtu, appearance, icon, manufacturer, model
        }

        /// A Polar H10 strap, unpaired, in range, worn on the chest, battery 87 %.
        static let polarH10 = Device(
            address: "A0:9E:1A:00:00:01", name: "Polar H10 A1B2C3D4", rssi: -58,
            services: ["180d", "180f", "180a"], advertisedUUIDs: ["180d"],
            bodySensorLocation: 1, battery: 87, mtu: 232,
            manufacturer: "Polar Electro Oy", model: "H10")

        /// A paired keyboard bluetoothd already knows: a device without 0x180D that a heart-rate
        /// client must ignore. Its HID service 0x1812 is claimed by BlueZ and never exported.
        static let mxKeys = Device(
            address: "D2:3C:4E:5A:6B:7C", addressType: "random", name: "MX Keys", rssi: -71,
            paired: true, trusted: true, services: ["1812", "180f", "180a"],
            advertisedUUIDs: ["1812"], battery: 55, knownAtStart: true,
            appearance: 961, icon: "input-keyboard", manufacturer: "Logitech", model: "MX Keys")
    }

    struct Config: Codable, Sendable {
        var adapters = [Adapter()]
        var devices: [Device] = [.polarH10, .mxKeys]
        /// BlueZ TemporaryTimeout (30 s): unconnected discovered devices disappear this long
        /// after they were last seen.
        var temporaryTimeoutMs = 30_000
        /// BlueZ DISCONNECT_TIMER (2 s) between Disconnect() and the link going down.
        var disconnectTimerMs = 2_000
        var connectTimeoutMs = 2_000
        var advertisingIntervalMs = 500
        /// Latency of one ATT request (CCC write, read).
        var attDelayMs = 20
        /// After (re)start the name is owned first; adapters appear this much later, unpowered,
        /// then powered (as bluetoothd does while it talks to the kernel).
        var startupDelayMs = 50
        /// main.conf [GATT] Cache: "always" (default: GATT objects survive disconnects),
        /// "yes" (only for paired devices) or "no".
        var gattCache = "always"

        enum CodingKeys: String, CodingKey {
            case adapters, devices
            case temporaryTimeoutMs = "temporary_timeout_ms", disconnectTimerMs = "disconnect_timer_ms"
            case connectTimeoutMs = "connect_timeout_ms", advertisingIntervalMs = "advertising_interval_ms"
            case attDelayMs = "att_delay_ms", startupDelayMs = "startup_delay_ms", gattCache = "gatt_cache"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let polar = Device.polarH10.address
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FakeBlueZ")
    static let python = "/usr/bin/python3"

    let config: Config
    /// The private bus address, as dbus-daemon printed it.
    private(set) var address = ""
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }
    let temporaryDirectory: String

    private let lock = NSLock()
    private let busConfig: String
    private let timeout: TimeInterval
    private var bus: Process?
    private var busInput: FileHandle?
    private var busOutput: LineReader?
    private var busPID: pid_t = 0
    private var fake: Process?
    private var fakeInput: FileHandle?
    private var fakeOutput: LineReader?
    private var stopped = false

    /// Starts a private bus (configured by `busConfig` in Tests/FakeBlueZ) and the fake on it;
    /// returns once the fake printed `ready`.
    init(_ config: Config = Config(), busConfig: String = "bus.conf", timeout: TimeInterval = 10) throws {
        signal(SIGPIPE, SIG_IGN)
        self.config = config
        self.busConfig = busConfig
        self.timeout = timeout
        var template = Array("/tmp/hrvmon-bt.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed: errno \(errno)") }
        temporaryDirectory = String(cString: made)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(config).write(to: URL(fileURLWithPath: configPath))
            try startBus()
            try startFake()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    var configPath: String { temporaryDirectory + "/config.json" }
    var fakeLogPath: String { temporaryDirectory + "/fake_bluetoothd.log" }
    var busLogPath: String { temporaryDirectory + "/dbus-daemon.log" }

    /// Everything the fake wrote to stderr so far (all runs).
    var fakeLog: String { (try? String(contentsOfFile: fakeLogPath, encoding: .utf8)) ?? "" }
    var busLog: String { (try? String(contentsOfFile: busLogPath, encoding: .utf8)) ?? "" }

    // MARK: Control channel

    /// Sends one control line and returns the fake's JSON reply (`ok` is false for a refused
    /// command; use `run` to throw instead). Throws if the fake does not answer in time.
    func command(_ line: String, timeout: TimeInterval = 5) throws -> [String: Any] {
        try lock.withLock {
            guard let input = fakeInput, let output = fakeOutput, let fake, fake.isRunning else {
                throw Failure(description: "fake bluetoothd is not running; command '\(line)'\n\(fakeLog)")
            }
            try Self.send(line + "\n", to: input.fileDescriptor)
            let reply = try Self.nextLine(
                output, of: fake, before: Date().addingTimeInterval(timeout), "fake bluetoothd on '\(line)'", log: fakeLog)
            guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
            else { throw Failure(description: "fake bluetoothd answered '\(line)' with '\(reply)'") }
            return object
        }
    }

    /// `command`, throwing unless the reply has `ok: true`.
    @discardableResult
    func run(_ line: String, timeout: TimeInterval = 5) throws -> [String: Any] {
        let reply = try command(line, timeout: timeout)
        guard reply["ok"] as? Bool == true else {
            throw Failure(description: "fake bluetoothd refused '\(line)': \(reply["error"] ?? reply)")
        }
        return reply
    }

    /// One Heart Rate Measurement notification; returns how many subscribers got it.
    @discardableResult
    func notify(_ bytes: [UInt8], device: String = FakeBluetooth.polar) throws -> Int {
        try run("notify \(device) \(Packet.hex(bytes))")["delivered"] as? Int ?? 0
    }

    func drop(_ device: String = FakeBluetooth.polar) throws { try run("drop \(device)") }
    func range(_ inRange: Bool, device: String = FakeBluetooth.polar) throws {
        try run("range \(device) \(inRange ? "on" : "off")")
    }
    func power(_ on: Bool, adapter: String = "hci0") throws { try run("power \(adapter) \(on ? "on" : "off")") }
    /// The next call of `method` (e.g. "StartNotify") fails with this D-Bus error.
    func fail(_ method: String, with error: String, message: String? = nil) throws {
        try run("fail \(method) \(error)" + (message.map { " " + $0 } ?? ""))
    }
    func sessions(_ device: String = FakeBluetooth.polar) throws -> [String: Any] { try run("sessions \(device)") }

    // MARK: Lifecycle

    /// bluetoothd restart: SIGTERM the fake (it powers down and exits, org.bluez loses its owner),
    /// then start it again with the same configuration on the same bus.
    func restart() throws {
        try lock.withLock {
            stopFake()
            try startFake()
        }
    }

    /// Stops the fake and the bus and removes the temporary directory. Idempotent.
    func stop() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            stopFake()
            // A throwaway bus: SIGKILL, because children of a Swift test inherit a signal mask
            // that blocks SIGTERM and dbus-daemon does not unblock it.
            if busPID > 0 { kill(busPID, SIGKILL) }
            try? busInput?.close()           // the wrapper shell exits when its stdin closes
            if let bus { Self.terminate(bus, grace: 2) }
            busOutput?.close()
            busInput = nil
            busOutput = nil
            bus = nil
            try? FileManager.default.removeItem(atPath: temporaryDirectory)
        }
    }

    // MARK: Private

    private func startBus() throws {
        let conf = Self.directory.appendingPathComponent(busConfig).path
        guard FileManager.default.fileExists(atPath: conf) else { throw Failure(description: "missing \(conf)") }
        // The shell prints dbus-daemon's pid and kills it when our end of its stdin closes, so a
        // test process that dies without stop() does not leave a bus behind.
        let script = """
            dbus-daemon --config-file="$1" --nofork --print-address=1 --address="$2" </dev/null &
            echo "pid $!"
            read _ignored
            kill -9 $! 2>/dev/null
            """
        let (process, input, reader) = try Self.spawn(
            "/bin/sh", ["-c", script, "sh", conf, "unix:path=\(temporaryDirectory)/system_bus_socket"], log: busLogPath)
        bus = process
        busInput = input
        busOutput = reader
        let deadline = Date().addingTimeInterval(timeout)
        while address.isEmpty || busPID == 0 {
            let line = try Self.nextLine(reader, of: process, before: deadline, "dbus-daemon starting", log: busLog)
            if line.hasPrefix("pid "), let pid = pid_t(line.dropFirst(4)) { busPID = pid }
            if line.hasPrefix("unix:") { address = line }
        }
    }

    func startFake() throws {
        let script = Self.directory.appendingPathComponent("fake_bluetoothd.py").path
        var environment = ProcessInfo.processInfo.environment
        for key in ["PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP"] { environment[key] = nil }
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        let (process, input, reader) = try Self.spawn(
            Self.python, [script, "--bus", address, "--config", configPath], environment: environment, log: fakeLogPath)
        fake = process
        fakeInput = input
        fakeOutput = reader
        let line = try Self.nextLine(reader, of: process, before: Date().addingTimeInterval(timeout), "fake bluetoothd starting", log: fakeLog)
        guard line == "ready" else {
            throw Failure(description: "fake bluetoothd printed '\(line)' instead of ready\n\(fakeLog)")
        }
    }

    /// A child with pipes on stdin and stdout and its stderr appended to `log`.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, log: String
    ) throws -> (Process, FileHandle, LineReader) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try logHandle(log)
        try process.run()
        return (process, input.fileHandleForWriting, LineReader(output.fileHandleForReading))
    }

    /// The child's next line, or a failure naming `what` once it exits, closes its output or
    /// `deadline` passes.
    private static func nextLine(_ reader: LineReader, of process: Process, before deadline: Date, _ what: String, log: @autoclosure () -> String) throws -> String {
        while true {
            switch reader.readLine(before: min(deadline, Date().addingTimeInterval(0.2))) {
            case .line(let line):
                return line
            case .end:
                throw Failure(description: "\(what): output closed\n\(log())")
            case .timeout:
                if !process.isRunning { throw Failure(description: "\(what): exited\n\(log())") }
                if Date() >= deadline { throw Failure(description: "\(what): nothing within the deadline\n\(log())") }
            }
        }
    }

    func stopFake() {
        if let fake { Self.terminate(fake, grace: 3) }
        try? fakeInput?.close()
        fakeOutput?.close()
        fake = nil
        fakeInput = nil
        fakeOutput = nil
    }

    /// SIGTERM, wait up to `grace` seconds, then SIGKILL and wait briefly.
    private static func terminate(_ process: Process, grace: TimeInterval) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        var deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    private static func logHandle(_ path: String) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw Failure(description: "cannot open \(path)")
        }
        handle.seekToEndOfFile()
        return handle
    }

    private static func send(_ text: String, to fd: Int32) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write to the fake bluetoothd: errno \(errno)")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Lines from a pipe, read with poll(2) and a deadline; never waits for end of file.
private final class LineReader {
    enum Result { case line(String), end, timeout }

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var ended = false
    private var closed = false

    init(_ handle: FileHandle) { self.handle = handle }

    func readLine(before deadline: Date) -> Result {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            if ended || closed { return .end }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timeout }
            var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining * 1000, 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                ended = true
                continue
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                ended = true
            }
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        try? handle.close()
    }
}
