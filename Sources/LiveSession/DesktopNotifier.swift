import DBus
import LivePipeline
import Platform
import Presentation
import SelfReport
import SessionLog
import Settings

/// Breathing suggestions as desktop notifications (org.freedesktop.Notifications on the session
/// bus), for whoever is not looking at the terminal — or runs hrvmon as a background service.
/// Quietly absent without a session bus or a notification service. At most one per
/// `notify.min_interval_seconds` of session time; each replaces the previous bubble. One of
/// several sensors' sessions says which sensor it is about, and keeps a bubble of its own.
/// When a stress episode ends, the bubble asks "Was that stress?" with the actions Yes, No and
/// Not sure (the Desktop Notifications Specification's actions and ActionInvoked signal); a
/// click goes to `onAnswer` with the episode's number, while the session runs.
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
    private var waiting: Bubble?
    /// Stress episodes ended so far: the next one's number is one more.
    private var stressEpisodes = 0
    /// Which stress episode each bubble that asks about one asks about, by the server's id.
    private var questions: [UInt32: Int] = [:]
    /// Where a click on an answer goes: the episode's number (from 1) and the answer.
    public var onAnswer: ((Int, EpisodeAnswer) -> Void)?

    private struct Bubble {
        var summary: String
        var body: String
        /// The stress episode it asks about; nil for a suggestion.
        var episode: Int?
    }
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
        connection.addMatch(MatchRule(sender: Self.service, interface: Self.service, member: "ActionInvoked"))
        connection.onSignal { [weak self] message in
            guard let self, message.isSignal(interface: Self.service, member: "ActionInvoked"), let arguments = message.arguments,
                arguments.count == 2, let id = arguments[0].integer, let key = arguments[1].string,
                let episode = questions[UInt32(truncatingIfNeeded: id)], let answer = EpisodeAnswer(rawValue: key)
            else { return }
            questions[UInt32(truncatingIfNeeded: id)] = nil
            onAnswer?(episode, answer)
        }
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        if case .sensor(.identity(let name, let address)) = event { sensor = name ?? address }
        let subject = namesSensor ? "Stress on \(sensor ?? "a sensor")" : "Stress"
        if case .live(.episode(let episode)) = event, episode.kind == .stress {
            stressEpisodes += 1
            guard !isFinished, onAnswer != nil else { return }
            // Asked whatever the interval: every episode is worth an answer.
            let span = "from \(Formatting.clock(episode.start)) to \(Formatting.clock(episode.end)) into the session"
            show(Bubble(
                summary: subject + " episode \(stressEpisodes) ended. " + EpisodeAnswer.question,
                body: "Flagged \(span). Your answer labels it in the session file; `hrvmon label` changes it later, and `hrvmon checkin` records what was going on.",
                episode: stressEpisodes))
            return
        }
        guard !isFinished, case .live(.suggestion(let suggestion)) = event, lastSent.map({ time - $0 >= minimumInterval }) ?? true
        else { return }
        lastSent = time
        let summary = subject + ": try \(Formatting.fixed(suggestion.minutes, digits: 0)) min of \(suggestion.pattern.name) breathing"
        show(Bubble(summary: summary, body: suggestion.reason + ".\n" + suggestion.tip, episode: nil))
    }

    /// Sends `bubble`, or keeps it until the last one's id is known; a question waits only
    /// where no suggestion does (the suggestion is what to do now).
    private func show(_ bubble: Bubble) {
        guard awaitingID else { return notify(bubble) }
        if bubble.episode == nil || waiting?.episode != nil || waiting == nil { waiting = bubble }
    }

    /// Sends what is queued before the process ends: a bubble waiting for its predecessor's id
    /// waits for it (up to a second), so it still replaces that bubble.
    public func finish(_ summary: SessionSummary) {
        isFinished = true
        // A question no one can answer once the session has ended is not asked.
        if waiting?.episode != nil { waiting = nil }
        if waiting != nil { connection.dispatch(forAtMost: 1) { !awaitingID } }
        if let waiting {
            self.waiting = nil
            notify(waiting)
        }
        connection.close()
    }

    private func notify(_ shown: Bubble) {
        let actions = shown.episode == nil ? [] : EpisodeAnswer.allCases.flatMap { [$0.rawValue, $0.words] }
        let arguments = Self.notifyArguments(
            replacing: bubble, summary: shown.summary, body: bodyIsMarkup ? Self.escaped(shown.body) : shown.body, actions: actions)
        awaitingID = true
        connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "Notify", arguments: arguments) { [weak self] result in
            guard let self else { return }
            // Without a notification service the call fails (ServiceUnknown): nothing to tell.
            if case .success(let values) = result, let id = values.first?.integer {
                bubble = UInt32(truncatingIfNeeded: id)
                // A bubble replaced by a suggestion no longer asks.
                questions[bubble] = shown.episode
            }
            awaitingID = false
            if !isFinished, let waiting {
                self.waiting = nil
                notify(waiting)
            }
        }
    }

    /// Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout): -1
    /// is the server's default timeout; urgency 1 is normal. Actions are pairs of key and label.
    static func notifyArguments(replacing bubble: UInt32, summary: String, body: String, actions: [String]) -> [DBusValue] {
        [
            .string("hrvmon"), .uint32(bubble), .string(""), .string(summary), .string(body), .strings(actions),
            .properties(["urgency": .byte(1)]), .int32(-1),
        ]
    }

    static func escaped(_ text: String) -> String {
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
