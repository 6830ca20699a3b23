import HRV

// The episode and suggestion fields `analyze` and `monitor` share (README documents both).
extension JSONObject {
    mutating func addFields(of episode: StressEpisode) {
        add("start_s", episode.start)
        add("end_s", episode.end)
        add("peak_level", episode.peakLevel)
    }

    /// `timeKey`: `t_s` in `analyze`'s summary, `session_s` in `monitor`'s lines.
    mutating func addFields(of suggestion: BreathingCoach.Suggestion, timeKey: String) {
        add(timeKey, suggestion.time)
        add("reason", suggestion.reason)
        add("pattern", suggestion.pattern.name)
        add("minutes", suggestion.minutes)
        add("tip", suggestion.tip)
    }
}
