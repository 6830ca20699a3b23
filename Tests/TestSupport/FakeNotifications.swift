import Foundation

/// A private session bus, with the fake desktop notification server of Tests/TestSupport/FakeNotifications
/// on it or without (to test its absence). Point hrvmon at it with `environment`
/// (DBUS_SESSION_BUS_ADDRESS); `calls` reads the Notify calls the server recorded. Every wait
/// has a deadline.
public final class FakeNotifications: @unchecked Sendable {
    public static let script = Bundle.module.url(forResource: "fake_notifications", withExtension: "py", subdirectory: "FakeNotifications")!.path

    public let temporaryDirectory: String
    private let bus: PrivateBus
    private var server: Process?
    private var serverInput: FileHandle?
    private var serverOutput: LineReader?

    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus.address] }
    public var serverLogPath: String { temporaryDirectory + "/fake_notifications.log" }
    public var serverLog: String { (try? String(contentsOfFile: serverLogPath, encoding: .utf8)) ?? "" }

    /// `server`: whether org.freedesktop.Notifications has an owner; `capabilities`: what
    /// GetCapabilities answers; `replyDelay`: seconds before each Notify is answered.
    public init(server: Bool = true, capabilities: [String] = ["body"], replyDelay: Double = 0, timeout: TimeInterval = 10) throws {
        var template = Array("/tmp/hrvmon-notify.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestChild.Failure(description: "mkdtemp failed: errno \(errno)") }
        temporaryDirectory = String(cString: made)
        bus = try PrivateBus(socket: temporaryDirectory + "/session_bus_socket", log: temporaryDirectory + "/dbus-daemon.log", timeout: timeout)
        guard server else { return }
        do {
            var environment = ProcessInfo.processInfo.environment
            for key in ["PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP"] { environment[key] = nil }
            let (process, input, reader) = try TestChild.spawn(
                FakeBluetooth.python, [Self.script, "--bus", bus.address, "--capabilities", capabilities.joined(separator: ","), "--reply-delay", String(replyDelay)],
                environment: environment, log: serverLogPath)
            (self.server, serverInput, serverOutput) = (process, input, reader)
            let line = try TestChild.nextLine(reader, of: process, before: Date().addingTimeInterval(timeout), "fake notification server starting", log: serverLog)
            guard line == "ready" else { throw TestChild.Failure(description: "the fake notification server printed '\(line)'\n\(serverLog)") }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The Notify calls recorded, as JSON objects: waits until `count` arrived or `timeout`
    /// passed, so asking for one more than expected checks that no more came.
    public func calls(_ count: Int, timeout: Double) -> [[String: Any]] {
        guard let server, let serverOutput else { return [] }
        var calls: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while calls.count < count, Date() < deadline,
            let line = try? TestChild.nextLine(serverOutput, of: server, before: deadline, "Notify calls", log: "")
        {
            if let call = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] { calls.append(call) }
        }
        return calls
    }

    /// A click on the action `key` of notification `id`: the server emits ActionInvoked.
    public func invoke(_ key: String, onNotification id: Int) throws {
        guard let serverInput else { throw TestChild.Failure(description: "no fake notification server runs") }
        try serverInput.write(contentsOf: Data("invoke \(id) \(key)\n".utf8))
    }

    /// Idempotent.
    public func stop() {
        if let server { TestChild.terminate(server, grace: 2) }
        try? serverInput?.close()
        serverOutput?.close()
        server = nil
        serverInput = nil
        serverOutput = nil
        bus.stop()
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }
}
