import Foundation

/// The desktop's idle-time sources faked (Tests/TestSupport/FakeDesktop/fake_desk.py) on a private
/// session bus, and logind on a system bus: the given one (the fake bluetoothd's, for `monitor`)
/// or a private one of its own. A source left nil is not served. Point hrvmon at them with
/// `environment`. Every wait has a deadline.
public final class FakeDesk: @unchecked Sendable {
    public let temporaryDirectory: String
    private let sessionBus: PrivateBus
    private let ownSystemBus: PrivateBus?
    private let systemBusAddress: String
    private var server: FakeDesktopService?

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
        temporaryDirectory = try TestChild.temporaryDirectory("hrvmon-desk")
        sessionBus = try PrivateBus(socket: temporaryDirectory + "/session_bus_socket", log: temporaryDirectory + "/session-bus.log", timeout: timeout)
        if let systemBus {
            ownSystemBus = nil
            systemBusAddress = systemBus
        } else {
            let bus = try PrivateBus(socket: temporaryDirectory + "/system_bus_socket", log: temporaryDirectory + "/system-bus.log", timeout: timeout)
            ownSystemBus = bus
            systemBusAddress = bus.address
        }
        var arguments = ["--session-bus", sessionBus.address, "--system-bus", systemBusAddress]
        if let mutter { arguments += ["--mutter", mutter] }
        if let screenSaver { arguments += ["--screensaver", screenSaver] }
        if let logindIdleSeconds { arguments += ["--logind-idle-seconds", String(logindIdleSeconds)] }
        do {
            server = try FakeDesktopService("fake_desk", arguments, named: "fake desk", log: serverLogPath, timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Sets a source's idle time from now on: `mutter` milliseconds, `screensaver` or `logind` seconds.
    public func set(_ source: String, idle: String) throws {
        guard let server else { throw TestChild.Failure(description: "no fake desk runs") }
        try server.tell("\(source) \(idle)")
    }

    /// The methods called so far and within `timeout` more seconds, until `count` have come.
    public func calls(_ count: Int, timeout: Double) -> [String] {
        server?.lines(count, timeout: timeout) { $0.hasPrefix("call ") ? String($0.dropFirst(5)) : nil } ?? []
    }

    /// Idempotent.
    public func stop() {
        server?.stop()
        server = nil
        sessionBus.stop()
        ownSystemBus?.stop()
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }
}
