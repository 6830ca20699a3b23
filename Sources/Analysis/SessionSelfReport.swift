import HRV
import Platform
import Presentation
import SelfReport
import SessionLog

/// What the wearer reported in a session: its stress episodes with their answers to "Was that
/// stress?", and its check-ins. Pure: made from the session's index entry.
public struct SessionSelfReport: Sendable {
    public struct Episode: Sendable {
        /// From 1, as `hrvmon label SESSION:N` names it.
        public var number: Int
        public var episode: IndexedSession.Episode
    }

    public var episodes: [Episode]
    public var checkIns: [SessionFile.TimedCheckIn]

    public init(_ entry: IndexedSession) {
        episodes = entry.stressEpisodes.enumerated().map { Episode(number: $0 + 1, episode: $1) }
        checkIns = entry.checkIns
    }
}

/// `hrvmon sessions --episodes` and the self-report in `sessions`' JSON.
extension SessionOverview {
    /// Every stress episode of `sessions`, one line each, with its name for `hrvmon label`.
    public static func episodesTable(_ sessions: [SessionOverview]) -> String {
        let rows = sessions.flatMap { session in
            session.selfReport.episodes.map { item in
                [
                    "\(session.id):\(item.number)", WallClock.day(session.start),
                    WallClock.timeOfDay(session.start + item.episode.start) + "–" + WallClock.timeOfDay(session.start + item.episode.end),
                    Formatting.duration(item.episode.end - item.episode.start), item.episode.answer?.words.lowercased() ?? "unanswered",
                ]
            }
        }
        guard !rows.isEmpty else { return "no stress episodes in these sessions\n" }
        return Formatting.columns([["EPISODE", "DAY", "WHEN", "LENGTH", "WAS IT STRESS?"]] + rows)
            + "answer with `hrvmon label EPISODE yes|no|unsure`\n"
    }

    /// The check-ins' lines under the sessions' table.
    func checkInLines() -> String {
        selfReport.checkIns.map { "  \(id) \(WallClock.timeOfDay($0.time))  check-in: \($0.checkIn.summary)\n" }.joined()
    }

    /// `episodes` (with `answer`: yes, no, unsure or null) and `checkins` for the JSON object.
    func addSelfReport(to object: inout JSONObject) {
        object.add("episodes", selfReport.episodes.map { item in
            var entry = JSONObject()
            entry.add("episode", "\(id):\(item.number)")
            entry.add("start_s", item.episode.start)
            entry.add("end_s", item.episode.end)
            entry.add("answer", item.episode.answer?.rawValue)
            return entry
        })
        object.add("checkins", selfReport.checkIns.map { timed in
            var entry = JSONObject()
            entry.add("t", timed.time)
            entry.addFields(of: timed.checkIn)
            return entry
        })
    }
}

extension StressPatterns {
    /// The patterns of `sessions` and the diary's check-ins (`diary`, Unix seconds), each session
    /// at its own UTC offset; the state before each denied episode read from its session's metrics.
    public init(_ sessions: [SessionOverview], diary: [(time: Double, checkIn: CheckIn)]) {
        self.init(
            sessions: sessions.map { session in
                let episodes = session.selfReport.episodes.map(\.episode)
                return StressPatterns.Session(
                    start: session.start, utcOffset: WallClock.utcOffset(session.start), episodes: episodes,
                    statesBefore: SessionSelfReport.statesBeforeDenied(path: session.path, episodes))
            },
            checkIns: sessions.flatMap { $0.selfReport.checkIns.map { ($0.time, $0.checkIn) } } + diary)
    }

    /// `history`'s section: the patterns in words, under a heading; empty with no episode.
    public var section: String {
        guard episodes > 0 else { return "" }
        return "\nWhat your check-ins and answers show (stress episodes in these days; a check-in describes the 30 minutes either side of it)\n"
            + lines.map { "  " + $0 + "\n" }.joined()
    }
}
