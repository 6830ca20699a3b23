import Foundation

/// The desktop's idle-time sources faked (Tests/TestSupport/FakeDesk/fake_desk.py) on a private
/// session bus, and logind on a system bus: the given one (the fake bluetoothd's, for `monitor`)
/// or a private one of its own. A source left nil is not served. Point hrvmon at them with
/// `environment`. Every wait has a deadline.
public final class FakeDesk: @unchecked Sendable {
    public static let script = Bundle.module.url(forResource: "fake_desk", withExtension: "py", subdirectory: "FakeDesk")!.path

    public let temporaryDirectory: String
    private let sessionBus: PrivateBus
    private let ownSystemBus: PrivateBus?
    private let systemBusAddress: String
    private var server: Process?
    private var serverInput: FileHandle?
    private var serverOutput: LineReader?

    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": sessionBus.address, "DBUS_SYSTEM_BUS_ADDRESS": systemBusAddress]
    }
    public var serverLogPath: String { temporaryDirectory + "/fake_desk.log" }
    public var serverLog: String { (try? String(contentsOfFile: serverLogPath, encoding: .utf8)) ?? "" }

    /// `mutter`: milliseconds idle, or "silent" (never answers); `screenSaver`: seconds idle, or
    /// "error" (NotSupported, as GNOME Shell answers); `logindIdleSeconds`: seconds since the
    /// session's last input as logind tells it; `systemBus`: the address logind goes on (nil: a
    /// private bus of its own).
    public init(
        mutter: String? = nil, screenSaver: String? = nil, logindIdleSeconds: Double? = nil, systemBus: String? = nil,
        timeout: TimeInterval = 10
    ) throws {
        var template = Array("/tmp/hrvmon-desk.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestChild.Failure(description: "mkdtemp failed: errno \(errno)") }
        temporaryDirectory = String(cString: made)
        sessionBus = try PrivateBus(socket: temporaryDirectory + "/session_bus_socket", log: temporaryDirectory + "/session-bus.log", timeout: timeout)
        if let systemBus {
            ownSystemBus = nil
            systemBusAddress = systemBus
        } else {
            let bus = try PrivateBus(socket: temporaryDirectory + "/system_bus_socket", log: temporaryDirectory + "/system-bus.log", timeout: timeout)
            ownSystemBus = bus
            systemBusAddress = bus.address
        }
        var arguments = [Self.script, "--session-bus", sessionBus.address, "--system-bus", systemBusAddress]
        if let mutter { arguments += ["--mutter", mutter] }
        if let screenSaver { arguments += ["--screensaver", screenSaver] }
        if let logindIdleSeconds { arguments += ["--logind-idle-seconds", String(logindIdleSeconds)] }
        do {
            var environment = ProcessInfo.processInfo.environment
            for key in ["PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP"] { environment[key] = nil }
            let (process, input, reader) = try TestChild.spawn(FakeBluetooth.python, arguments, environment: environment, log: serverLogPath)
            (server, serverInput, serverOutput) = (process, input, reader)
            let line = try TestChild.nextLine(reader, of: process, before: Date().addingTimeInterval(timeout), "fake desk starting", log: serverLog)
            guard line == "ready" else { throw TestChild.Failure(description: "the fake desk printed '\(line)'\n\(serverLog)") }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Sets a source's idle time from now on: `mutter` milliseconds, `screensaver` or `logind` seconds.
    public func set(_ source: String, idle: String) throws {
        guard let serverInput else { throw TestChild.Failure(description: "no fake desk runs") }
        try serverInput.write(contentsOf: Data("\(source) \(idle)\n".utf8))
    }

    /// The methods called so far and within `timeout` more seconds, until `count` have come.
    public func calls(_ count: Int, timeout: Double) -> [String] {
        guard let server, let serverOutput else { return [] }
        var calls: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while calls.count < count, Date() < deadline,
            let line = try? TestChild.nextLine(serverOutput, of: server, before: deadline, "fake desk calls", log: "")
        {
            if line.hasPrefix("call ") { calls.append(String(line.dropFirst(5))) }
        }
        return calls
    }

    /// Idempotent.
    public func stop() {
        if let server { TestChild.terminate(server, grace: 2) }
        try? serverInput?.close()
        serverOutput?.close()
        server = nil
        serverInput = nil
        serverOutput = nil
        sessionBus.stop()
        ownSystemBus?.stop()
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }
}
