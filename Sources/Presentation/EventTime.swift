import Platform

/// How a session's lines say when something happened: at the time of day, or as time into the
/// session. The demo takes the second: its clock runs faster than the wall's, so the times of day
/// its events would carry never happened.
public enum EventTime: Equatable, Sendable {
    case timeOfDay
    /// Time since `start`, the session's start on the events' clock, as the dashboard's clock shows it.
    case intoSession(start: Double)

    /// Eight columns: `14:03:27`, or `    5:12` into the session.
    public func label(_ time: Double) -> String {
        switch self {
        case .timeOfDay:
            return WallClock.timeOfDay(time)
        case .intoSession(let start):
            let clock = Formatting.clock(max(0, time - start))
            return String(repeating: " ", count: max(0, 8 - clock.count)) + clock
        }
    }
}
