/// What check-ins and answers reveal over many sessions: stress minutes and confirmed episodes by
/// what you were doing, where and with whom, and by hour × weekday; and the detector's agreement
/// with you — how many flagged episodes you confirmed, denied or left unanswered, and what the
/// denied ones had in common. Pure: sessions in, counts out; the words in `lines`.
public struct StressPatterns: Equatable, Sendable {
    /// One session's episodes and check-ins, as read from its file.
    public struct Session: Sendable {
        /// Unix seconds, and the UTC offset then (seconds east), for local hours and weekdays.
        public var start: Double
        public var utcOffset: Int
        public var episodes: [Episode]

        public init(start: Double, utcOffset: Int, episodes: [Episode]) {
            self.start = start
            self.utcOffset = utcOffset
            self.episodes = episodes
        }
    }

    /// A flagged stress episode, seconds into its session, with the newest answer (nil:
    /// unanswered) and the detector's state in the minutes before it.
    public struct Episode: Sendable {
        public var start: Double
        public var end: Double
        public var answer: EpisodeAnswer?
        /// The state most of the `beforeSeconds` before the start was judged (a `StressState`'s
        /// name as session files write it); nil when unknown (not read, or no metrics then).
        public var stateBefore: String?

        public init(start: Double, end: Double, answer: EpisodeAnswer?, stateBefore: String? = nil) {
            self.start = start
            self.end = end
            self.answer = answer
            self.stateBefore = stateBefore
        }
    }

    /// "The state before" an episode: the five minutes before its start, long enough to hold an
    /// exercise's end or a change of posture, short enough to be the run-up to it.
    public static let beforeSeconds = 5.0 * 60

    /// Stress under one tag, hour or weekday.
    public struct Tally: Equatable, Sendable {
        public var minutes = 0.0
        public var episodes = 0
        /// Episodes you answered yes about.
        public var confirmed = 0

        public init(minutes: Double = 0, episodes: Int = 0, confirmed: Int = 0) {
            self.minutes = minutes
            self.episodes = episodes
            self.confirmed = confirmed
        }
    }

    /// A check-in describes what was going on from this long before it to this long after: an
    /// episode takes the check-in nearest its start within it.
    public static let contextSeconds = 30.0 * 60

    public private(set) var doing: [String: Tally] = [:]
    public private(set) var place: [String: Tally] = [:]
    public private(set) var company: [String: Tally] = [:]
    /// Monday 0 … Sunday 6, hour 0–23, local.
    public private(set) var hourByWeekday: [Int: [Int: Tally]] = [:]
    public private(set) var answers: [EpisodeAnswer?: Int] = [:]
    /// The denied episodes' hours (local) and tags, and their and the confirmed ones' lengths.
    public private(set) var deniedHours: [Int] = []
    public private(set) var deniedTags: [String: Int] = [:]
    /// The denied episodes by the state before them (those whose state is known).
    public private(set) var deniedStatesBefore: [String: Int] = [:]
    public private(set) var deniedSeconds: [Double] = []
    public private(set) var confirmedSeconds: [Double] = []

    /// `checkIns`: every check-in with its Unix time, in sessions and in the diary.
    public init(sessions: [Session], checkIns: [(time: Double, checkIn: CheckIn)]) {
        let sorted = checkIns.sorted { $0.time < $1.time }
        for session in sessions {
            for episode in session.episodes {
                let start = session.start + episode.start, seconds = episode.end - episode.start
                let local = Int((start + Double(session.utcOffset)).rounded(.down))
                let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
                // 1 January 1970 was a Thursday: weekday 3 with Monday 0.
                let weekday = ((day + 3) % 7 + 7) % 7, hour = (local - day * 86_400) / 3600
                let context = Self.context(at: start, in: sorted)
                let confirmed = episode.answer == .yes
                func count(_ tally: inout Tally) {
                    tally.minutes += seconds / 60
                    tally.episodes += 1
                    if confirmed { tally.confirmed += 1 }
                }
                if let tag = context?.doing { count(&doing[tag, default: Tally()]) }
                if let tag = context?.place { count(&place[tag, default: Tally()]) }
                if let tag = context?.company { count(&company[tag, default: Tally()]) }
                count(&hourByWeekday[weekday, default: [:]][hour, default: Tally()])
                answers[episode.answer, default: 0] += 1
                switch episode.answer {
                case .no?:
                    deniedHours.append(hour)
                    deniedSeconds.append(seconds)
                    for tag in [context?.doing, context?.place, context?.company].compactMap({ $0 }) { deniedTags[tag, default: 0] += 1 }
                    if let state = episode.stateBefore { deniedStatesBefore[state, default: 0] += 1 }
                case .yes?: confirmedSeconds.append(seconds)
                default: break
                }
            }
        }
    }

    /// The check-in nearest `time` within `contextSeconds`.
    static func context(at time: Double, in checkIns: [(time: Double, checkIn: CheckIn)]) -> CheckIn? {
        checkIns.filter { abs($0.time - time) <= contextSeconds }.min { abs($0.time - time) < abs($1.time - time) }?.checkIn
    }

    public var episodes: Int { answers.values.reduce(0, +) }

    /// The part of the day an hour is in, as people say it.
    public static func partOfDay(_ hour: Int) -> String {
        switch hour {
        case 0..<6: "at night (0–6 h)"
        case 6..<12: "in the morning (6–12 h)"
        case 12..<18: "in the afternoon (12–18 h)"
        default: "in the evening (18–24 h)"
        }
    }

    /// In words, for `history`: where stress was, and how far the detector agreed with you.
    public var lines: [String] {
        guard episodes > 0 else { return ["No stress episodes in these days."] }
        var lines: [String] = []
        for (question, tallies) in [("doing", doing), ("where", place), ("with", company)] where !tallies.isEmpty {
            let top = tallies.sorted { ($0.value.minutes, $1.key) > ($1.value.minutes, $0.key) }.prefix(3)
            lines.append("Stress by \(question): " + top.map { "\($0.key) \(Self.minutes($0.value.minutes)) (\(Self.count($0.value.episodes, "episode")), \($0.value.confirmed) confirmed)" }
                .joined(separator: "; "))
        }
        if doing.isEmpty && place.isEmpty && company.isEmpty {
            lines.append("No check-in within 30 minutes of an episode: `hrvmon checkin` (or c on the dashboard) says what was going on.")
        }
        let slots = hourByWeekday.flatMap { weekday, hours in hours.map { (weekday, $0.key, $0.value) } }
            .sorted { ($0.2.minutes, $1.0, $1.1) > ($1.2.minutes, $0.0, $0.1) }.prefix(3)
        lines.append("Most stress: " + slots.map { "\(Self.weekdayNames[$0.0]) \($0.1):00–\($0.1 + 1):00 \(Self.minutes($0.2.minutes))" }.joined(separator: "; "))
        let yes = answers[.yes] ?? 0, no = answers[.no] ?? 0, unsure = answers[.unsure] ?? 0, open = answers[nil] ?? 0
        lines.append("Was it stress? Of \(Self.count(episodes, "flagged episode")) you confirmed \(yes), denied \(no), were not sure of \(unsure) and left \(open) unanswered.")
        if no > 0 {
            var common: [String] = []
            if let hour = Dictionary(grouping: deniedHours, by: Self.partOfDay).max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }),
                hour.value.count * 2 > no
            {
                common.append("\(hour.value.count) of \(no) \(hour.key)")
            }
            if let tag = deniedTags.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), tag.value * 2 > no {
                common.append("\(tag.value) of \(no) while checked in as “\(tag.key)”")
            }
            if let state = deniedStatesBefore.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }), state.value * 2 > no {
                common.append("\(state.value) of \(no) came after five minutes mostly \(Self.stateWords(state.key))")
            }
            func meanMinutes(_ seconds: [Double]) -> String { Self.minutes(seconds.reduce(0, +) / Double(seconds.count) / 60) }
            let lengths = "on average \(meanMinutes(deniedSeconds)) long" + (confirmedSeconds.isEmpty ? "" : " (confirmed ones: \(meanMinutes(confirmedSeconds)))")
            lines.append("The episodes you denied: " + (common + [lengths]).joined(separator: "; ") + ".")
        }
        return lines
    }

    /// A detector state, as in "five minutes mostly …".
    public static func stateWords(_ state: String) -> String {
        switch state {
        case "rest": "at rest"
        case "elevated": "below your resting HRV without being stress (elevated)"
        case "stress": "in stress"
        case "activity": "of physical activity"
        case "recovery": "recovering from exercise"
        case "paced_breathing": "of slow paced breathing"
        case "posture": "just after a change of posture"
        default: "unjudged (calibrating, poor signal or no contact)"
        }
    }

    public static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }

    static func minutes(_ value: Double) -> String {
        value < 1 ? "under 1 min" : "\(Int(value.rounded())) min"
    }
}
