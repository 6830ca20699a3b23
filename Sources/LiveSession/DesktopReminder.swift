import DBus
import Platform

/// A reminder on the desktop from a command that is not a session (`hrvmon remind`, run by the
/// shipped systemd user timers): one notification, sent and answered before it returns.
public enum DesktopReminder {
    /// Nil when the notification service took it; else why not, in words.
    public static func send(summary: String, body: String) -> String? {
        let loop = EventLoop()
        let connection: Connection
        do {
            connection = try Connection.session(loop: loop)
        } catch {
            return "no session bus (\(error)); is this a desktop session?"
        }
        defer { connection.close() }
        var outcome: Result<[DBusValue], DBusError>?
        connection.call(
            destination: DesktopNotifier.service, path: DesktopNotifier.path, interface: DesktopNotifier.service, member: "Notify",
            arguments: DesktopNotifier.notifyArguments(replacing: 0, summary: summary, body: DesktopNotifier.escaped(body), actions: []),
            timeout: 10
        ) { outcome = $0 }
        connection.dispatch(forAtMost: 10) { outcome != nil }
        switch outcome {
        case .success?: return nil
        case .failure(let error)?: return "the notification service did not take it: \(error)"
        case nil: return "the notification service did not answer within 10 s"
        }
    }
}
