import Foundation

/// A private session bus, with the fake desktop notification server of
/// Tests/TestSupport/FakeDesktop/fake_notifications.py on it or without (to test its absence).
/// Point hrvmon at it with `environment` (DBUS_SESSION_BUS_ADDRESS); `calls` reads the Notify
/// calls the server recorded. Every wait has a deadline.
public final class FakeNotifications: @unchecked Sendable {
    public let temporaryDirectory: String
    private let bus: PrivateBus
    private var server: FakeDesktopService?

    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus.address] }
    public var serverLogPath: String { temporaryDirectory + "/fake_notifications.log" }
    public var serverLog: String { (try? String(contentsOfFile: serverLogPath, encoding: .utf8)) ?? "" }

    /// `server`: whether org.freedesktop.Notifications has an owner; `capabilities`: what
    /// GetCapabilities answers; `replyDelay`: seconds before each Notify is answered.
    public init(server: Bool = true, capabilities: [String] = ["body"], replyDelay: Double = 0, timeout: TimeInterval = 10) throws {
        temporaryDirectory = try TestChild.temporaryDirectory("hrvmon-notify")
        bus = try PrivateBus(socket: temporaryDirectory + "/session_bus_socket", log: temporaryDirectory + "/dbus-daemon.log", timeout: timeout)
        guard server else { return }
        do {
            self.server = try FakeDesktopService(
                "fake_notifications", ["--bus", bus.address, "--capabilities", capabilities.joined(separator: ","), "--reply-delay", String(replyDelay)],
                named: "fake notification server", log: serverLogPath, timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The Notify calls recorded, as JSON objects: waits until `count` arrived or `timeout`
    /// passed, so asking for one more than expected checks that no more came.
    public func calls(_ count: Int, timeout: Double) -> [[String: Any]] {
        server?.lines(count, timeout: timeout) { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] } ?? []
    }

    /// A click on the action `key` of notification `id`: the server emits ActionInvoked.
    public func invoke(_ key: String, onNotification id: Int) throws {
        guard let server else { throw TestChild.Failure(description: "no fake notification server runs") }
        try server.tell("invoke \(id) \(key)")
    }

    /// Idempotent.
    public func stop() {
        server?.stop()
        server = nil
        bus.stop()
        try? FileManager.default.removeItem(atPath: temporaryDirectory)
    }
}
