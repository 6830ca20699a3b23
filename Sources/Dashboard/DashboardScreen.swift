import HRV
import LivePipeline
import Platform
import Presentation

/// What the `Dashboard` draws and keys act on: one session's `DashboardState`, or several
/// sensors' (`SensorsDashboardState`). Pure, like both: events, keys and time in, lines out.
public protocol DashboardScreen {
    /// Keys reach the dashboard (stdin is a terminal).
    var acceptsKeys: Bool { get }
    /// The breathing exercise the pacer animates, if one runs.
    var exercise: DashboardState.Exercise? { get }
    /// What stays on the normal screen once the dashboard has given the terminal back: the
    /// summaries, as line output would print them, wrapped to the terminal's `width`.
    func closingLines(width: Int) -> [String]
    /// An event of the session of sensor `sensor` (0 for a single session).
    mutating func apply(_ event: SessionEvent, at time: Double, sensor: Int)
    mutating func finish(_ summary: SessionSummary, sensor: Int)
    mutating func advancePacer(to time: Double) -> [BreathingPacer.Cue]
    func exerciseIsDue(at time: Double) -> Bool
    mutating func press(_ key: Key) -> DashboardCommand?
    func render(size: TerminalSize, colors: Bool) -> [String]
}

extension DashboardState: DashboardScreen {
    public var acceptsKeys: Bool { configuration.acceptsKeys }

    public func closingLines(width: Int) -> [String] {
        SessionText.wrapped(summary.map { SessionText.summaryLines($0, time: configuration.eventTime) } ?? [], width: width)
    }

    public mutating func apply(_ event: SessionEvent, at time: Double, sensor: Int) { apply(event, at: time) }

    public mutating func finish(_ summary: SessionSummary, sensor: Int) { finish(summary) }
}
