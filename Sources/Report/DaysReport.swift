import HRV
import Platform
import SessionLog
import SelfReport
import Settings

/// Several days at a glance: per day the sessions, the time monitored and in stress, the resting
/// values of the personal history with the normal range the monitor used that day; per hour of
/// each day the minutes monitored and in stress.
public struct DaysReport {
    public struct Day {
        public var day: CalendarDay
        public var sessions = 0
        public var monitoredSeconds = 0.0
        public var stressSeconds = 0.0
        /// The day's resting measurement (the mean when there were several).
        public var resting: (lnRMSSD: Double, restingHR: Double)?
        /// The personal baseline as it stood that day (its last `baseline.days` days).
        public var baseline: Baseline?
        /// The long view: 7-day rolling mean and CV, the normal range of the 60 days before.
        public var readiness: ReadinessTrend.Day?
    }

    /// One hour of one day.
    public struct Hour {
        public var monitoredSeconds = 0.0
        public var stressSeconds = 0.0
    }

    public let days: [Day]
    /// `hours[d][h]`: day `d` of `days`, local hour `h` (0–23).
    public let hours: [[Hour]]
    /// Oldest first, from the session index.
    public let sessions: [IndexedSession]
    /// Session files that could not be read: their id and why.
    public let unreadable: [(id: String, reason: String)]
    /// What is read beside the sessions' lines (set by the command): the detector's state before
    /// each denied episode, by session id and episode number (from the metrics lines the page
    /// otherwise skips); the diary's check-ins of these days; the DASS-21 results of these days.
    public var statesBefore: [String: [Int: String]] = [:]
    public var diary: [(time: Double, checkIn: CheckIn)] = []
    public var dass21: [(result: DASS21.Result, time: Double)] = []

    /// The `count` days up to `today`, the sessions among `sessions` that started in them.
    public init(sessions candidates: [IndexedSession], unreadable: [(id: String, reason: String)], history: BaselineHistory,
         settings: Settings, today: CalendarDay, count: Int) {
        let first = CalendarDay(ordinal: today.ordinal - (count - 1))
        var days = (0..<count).map { Day(day: CalendarDay(ordinal: first.ordinal + $0)) }
        var hours = Array(repeating: Array(repeating: Hour(), count: 24), count: count)
        func index(_ time: Double) -> Int? {
            guard let day = CalendarDay(WallClock.day(time)) else { return nil }
            let index = day.ordinal - first.ordinal
            return days.indices.contains(index) ? index : nil
        }
        /// Adds the clock span to the hour cells it covers.
        func distribute(_ start: Double, _ end: Double, _ field: WritableKeyPath<Hour, Double>) {
            var time = start
            while time < end {
                let next = min(end, LocalTime.hourStart(time) + 3600)
                if let day = index(time) { hours[day][LocalTime.hour(time)][keyPath: field] += next - time }
                time = next
            }
        }

        sessions = candidates.filter { index($0.start) != nil }
        for session in sessions {
            days[index(session.start)!].sessions += 1
            let monitored = session.monitored
            for span in monitored { distribute(span.start, span.end, \.monitoredSeconds) }
            // Stress only while there were beats: an episode may span a link loss.
            for episode in session.stressEpisodes {
                let (start, end) = (episode.clock.start, episode.clock.end)
                for span in monitored { distribute(max(start, span.start), min(end, span.end), \.stressSeconds) }
            }
        }
        for (index, row) in hours.enumerated() {
            days[index].monitoredSeconds = row.reduce(0) { $0 + $1.monitoredSeconds }
            days[index].stressSeconds = row.reduce(0) { $0 + $1.stressSeconds }
        }

        let resting = Dictionary(uniqueKeysWithValues: history.daily(days: count, today: today.text).map { ($0.day, ($0.lnRMSSD, $0.restingHR)) })
        let readiness = history.readiness(days: count, today: today.text)
        for index in days.indices {
            let day = days[index].day.text
            days[index].resting = resting[day]
            days[index].readiness = readiness.first { $0.day == days[index].day.ordinal }
            days[index].baseline = history.baseline(
                days: Int(settings.baseline.days), minimumDays: Int(settings.baseline.minimumDays),
                minimumSD: settings.stress.minimumSD, today: day)
        }
        self.days = days
        self.hours = hours
        self.unreadable = unreadable
    }
}
