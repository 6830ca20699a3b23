import HRV

// The episode and suggestion fields `analyze` and `monitor` share (docs/reference/commands.md and session-files.md document both).
extension JSONObject {
    public mutating func addFields(of episode: StressEpisode) {
        add("start_s", episode.start)
        add("end_s", episode.end)
        add("peak_level", episode.peakLevel)
        if let reason = episode.reason {
            var why = JSONObject()
            why.add("rmssd_ms", reason.rmssd)
            why.add("reference_rmssd_ms", reason.referenceRMSSD)
            why.add("rmssd_change_pct", 100 * reason.rmssdChange)
            why.add("hr_above_rest_bpm", reason.heartRateAboveRest)
            why.add("breathing_per_min", reason.breathingRate)
            add("reason", why)
        }
    }

    /// `timeKey`: `t_s` in `analyze`'s summary, `session_s` in `monitor`'s lines.
    public mutating func addFields(of suggestion: BreathingCoach.Suggestion, timeKey: String) {
        add(timeKey, suggestion.time)
        add("reason", suggestion.reason)
        add("pattern", suggestion.pattern.name)
        add("minutes", suggestion.minutes)
        add("tip", suggestion.tip)
    }

    /// The minute before, the exercise and the two minutes after.
    public mutating func addFields(of effect: ExerciseEffect) {
        add("start_s", effect.start)
        add("end_s", effect.end)
        for (name, statistics) in [("before", effect.before), ("during", effect.during), ("after", effect.after)] {
            var span = JSONObject()
            span.add("rmssd_ms", statistics.rmssd)
            span.add("hr_bpm", statistics.meanHR)
            span.add("beats", statistics.count)
            add(name, span)
        }
        add("coherence", effect.coherence.meanScore.map { mean in
            var coherence = JSONObject()
            coherence.add("mean", mean)
            coherence.add("peak_hz", effect.coherence.meanPeakFrequency)
            coherence.add("readings", effect.coherence.readings)
            return coherence
        })
    }
}

extension JSONObject {
    /// A baseline's fields (`analyze`'s summary, the session header and summary).
    public init(baseline: Baseline) {
        self.init()
        add("source", baseline.source.rawValue)
        add("resting_hr_bpm", baseline.restingHR)
        add("ln_rmssd_mean", baseline.lnRMSSDMean)
        add("ln_rmssd_sd", baseline.lnRMSSDSD)
        add("samples", baseline.samples)
    }
}
