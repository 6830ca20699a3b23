import DBus
import LivePipeline
import Platform
import Presentation
import SessionLog
import Settings

/// Breathing suggestions as desktop notifications (org.freedesktop.Notifications on the session
/// bus), for whoever is not looking at the terminal — or runs hrvmon as a background service.
/// Quietly absent without a session bus or a notification service. At most one per
/// `notify.min_interval_seconds` of session time; each replaces the previous bubble. One of
/// several sensors' sessions says which sensor it is about, and keeps a bubble of its own.
public final class DesktopNotifier: SessionOutput {
    public static let service = "org.freedesktop.Notifications"
    public static let path = "/org/freedesktop/Notifications"

    private let connection: Connection
    private let minimumInterval: Double
    private var lastSent: Double?
    /// The server's id of our last bubble, so the next replaces it; 0 for none.
    private var bubble: UInt32 = 0
    /// A bubble sent and not yet answered with its id, and the newest one waiting for that id: sent
    /// before the answer, it would open a second bubble instead of replacing the first.
    private var awaitingID = false
    private var waiting: (summary: String, body: String)?
    /// Servers with the `body-markup` capability read the body as markup, where `&` and `<` must be
    /// escaped; most have it, so escape until the server says otherwise.
    private var bodyIsMarkup = true
    private var isFinished = false
    /// The summary names the sensor (its name, else its address, as it reports them).
    private let namesSensor: Bool
    private var sensor: String?

    /// Nil when turned off (`notify.desktop = false`) or when there is no session bus.
    public init?(_ settings: Settings.Notify, loop: EventLoop, namesSensor: Bool = false) {
        guard settings.desktop, let connection = try? Connection.session(loop: loop) else { return nil }
        self.connection = connection
        self.namesSensor = namesSensor
        minimumInterval = settings.minimumInterval
        connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "GetCapabilities") { [weak self] result in
            if case .success(let values) = result, let capabilities = values.first?.strings {
                self?.bodyIsMarkup = capabilities.contains("body-markup")
            }
        }
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        if case .sensor(.identity(let name, let address)) = event { sensor = name ?? address }
        guard !isFinished, case .live(.suggestion(let suggestion)) = event, lastSent.map({ time - $0 >= minimumInterval }) ?? true
        else { return }
        lastSent = time
        let subject = namesSensor ? "Stress on \(sensor ?? "a sensor")" : "Stress"
        let summary = subject + ": try \(Formatting.fixed(suggestion.minutes, digits: 0)) min of \(suggestion.pattern.name) breathing"
        let body = suggestion.reason + ".\n" + suggestion.tip
        if awaitingID { waiting = (summary, body) } else { notify(summary: summary, body: body) }
    }

    /// Sends what is queued before the process ends: a bubble waiting for its predecessor's id
    /// waits for it (up to a second), so it still replaces that bubble.
    public func finish(_ summary: SessionSummary) {
        isFinished = true
        if waiting != nil { connection.dispatch(forAtMost: 1) { !awaitingID } }
        if let waiting {
            self.waiting = nil
            notify(summary: waiting.summary, body: waiting.body)
        }
        connection.close()
    }

    private func notify(summary: String, body: String) {
        // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout): -1 is
        // the server's default timeout; urgency 1 is normal.
        let arguments: [DBusValue] = [
            .string("hrvmon"), .uint32(bubble), .string(""), .string(summary), .string(bodyIsMarkup ? Self.escaped(body) : body),
            .strings([]), .properties(["urgency": .byte(1)]), .int32(-1),
        ]
        awaitingID = true
        connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "Notify", arguments: arguments) { [weak self] result in
            guard let self else { return }
            // Without a notification service the call fails (ServiceUnknown): nothing to tell.
            if case .success(let values) = result, let id = values.first?.integer { bubble = UInt32(truncatingIfNeeded: id) }
            awaitingID = false
            if !isFinished, let waiting {
                self.waiting = nil
                notify(summary: waiting.summary, body: waiting.body)
            }
        }
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
