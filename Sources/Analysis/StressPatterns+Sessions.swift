import HRV
import Platform
import SelfReport
import SessionLog

extension SessionSelfReport {
    /// The detector's state before each denied episode of the session file at `path` (by its
    /// number from 1), from the file's metrics lines, which the session index leaves out: the
    /// file is read again only when it has a denied episode, and then only its metrics (not its
    /// beats, nor format 2's replay of the corrected ones). Empty when unreadable.
    public static func statesBeforeDenied(path: String, _ episodes: [IndexedSession.Episode]) -> [Int: String] {
        guard episodes.contains(where: { $0.answer == .no }), let file = try? SessionFileReader.read(path: path, detail: .metrics) else { return [:] }
        var states: [Int: String] = [:]
        for (index, episode) in episodes.enumerated() where episode.answer == .no {
            states[index + 1] = file.stateBefore(episode.start)
        }
        return states
    }
}

extension SessionFile {
    /// The state the metrics lines of the `StressPatterns.beforeSeconds` before `start` (RR
    /// seconds) name most often; nil without such lines. Format 1 writes a line per beat and
    /// format 2 one per 10 s: either way evenly in time, so counting lines is sharing time.
    public func stateBefore(_ start: Double) -> String? {
        var counts: [String: Int] = [:]
        for line in metrics where line.sessionSeconds < start && line.sessionSeconds >= start - StressPatterns.beforeSeconds {
            counts[line.state, default: 0] += 1
        }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}

extension StressPatterns {
    /// For `history --patterns --format json`: the tallies, the answers, what the denied episodes
    /// had in common, and the same in words (`summary`).
    public var json: JSONObject {
        func tallies(_ tallies: [String: Tally]) -> JSONObject {
            var object = JSONObject()
            for (key, tally) in tallies.sorted(by: { $0.key < $1.key }) { object.add(key, Self.json(tally)) }
            return object
        }
        func counts(_ counts: [String: Int]) -> JSONObject {
            var object = JSONObject()
            for (key, count) in counts.sorted(by: { $0.key < $1.key }) { object.add(key, count) }
            return object
        }
        func meanMinutes(_ seconds: [Double]) -> Double? { seconds.isEmpty ? nil : seconds.reduce(0, +) / Double(seconds.count) / 60 }
        var object = JSONObject()
        object.add("episodes", episodes)
        object.add("answers", counts(Dictionary(uniqueKeysWithValues: answers.map { ($0.key?.rawValue ?? "unanswered", $0.value) })))
        object.add("by_doing", tallies(doing))
        object.add("by_place", tallies(place))
        object.add("by_company", tallies(company))
        object.add("by_weekday_hour", hourByWeekday.sorted { $0.key < $1.key }.flatMap { weekday, hours in
            hours.sorted { $0.key < $1.key }.map { hour, tally in
                var entry = Self.json(tally)
                entry.add("weekday", Self.weekdayNames[weekday])
                entry.add("hour", hour)
                return entry
            }
        })
        var denied = JSONObject()
        denied.add("by_part_of_day", counts(Dictionary(grouping: deniedHours, by: Self.partOfDay).mapValues(\.count)))
        denied.add("by_tag", counts(deniedTags))
        denied.add("by_state_before", counts(deniedStatesBefore))
        denied.add("mean_minutes", meanMinutes(deniedSeconds))
        object.add("denied", denied)
        object.add("confirmed_mean_minutes", meanMinutes(confirmedSeconds))
        object.addStrings("summary", episodes > 0 ? lines : [])
        return object
    }

    private static func json(_ tally: Tally) -> JSONObject {
        var object = JSONObject()
        object.add("minutes", tally.minutes)
        object.add("episodes", tally.episodes)
        object.add("confirmed", tally.confirmed)
        return object
    }
}
