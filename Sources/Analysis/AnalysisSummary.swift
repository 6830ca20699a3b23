import HRV
import Presentation
import Recordings
import SessionLog

/// Whole-recording result of `analyze`, and its text, JSON and CSV forms (the JSON keys are a
/// documented contract).
public struct AnalysisSummary {
    public var source: String
    /// What was read, for the text form: "337 RR intervals in ms".
    public var input: String
    public var correction: ArtifactCorrector.Configuration?
    public var totals: RecordingTotals
    public var detections: ArtifactCounts
    public var metrics: TimeDomainMetrics?
    public var baseline: Baseline?
    public var episodes: [StressEpisode]
    public var suggestions: [BreathingCoach.Suggestion]
    public var effects: [ExerciseEffect]
    public var stateSeconds: StateSeconds
    /// Seconds judged with breathing from the chest and from the RR spectrum.
    public var breathingSourceSeconds: [BreathingSource: Double]
    /// A session's seconds of the chest accelerometer at each level; empty without one (RR files).
    public var motionSeconds: [MotionSecond.Level: Int] = [:]
    /// The frequency domain, DFA, SampEn and stress index (AnalysisSummary+Variability).
    public var variability: VariabilityMetrics?
    /// The strap's RR against its ECG, for a session recorded with it (ECGCheck+Session; shown by AnalysisSummary+ECGCheck).
    public var ecgCheck: ECGCheck?

    public init(
        source: String, input: String, correction: ArtifactCorrector.Configuration?, totals: RecordingTotals,
        variability: VariabilityMetrics?, detections: ArtifactCounts, judge: BeatJudge
    ) {
        self.variability = variability
        self.source = source
        self.input = input
        self.correction = correction
        self.totals = totals
        self.detections = detections
        metrics = totals.metrics
        baseline = judge.detector.baseline
        episodes = judge.episodes.sorted { $0.start < $1.start }
        suggestions = judge.suggestions
        effects = judge.effects
        stateSeconds = judge.stateSeconds
        breathingSourceSeconds = judge.breathingSourceSeconds
    }

    /// An RR file's summary.
    /// The summary of an RR file read as `layout` says, its numbers in `unit`.
    public init(source: String, layout: RRRecording.Layout, unit: RRUnit, pipeline: HRVPipeline, analysis: RecordingAnalysis) {
        let column = if case .csv(let name) = layout { ", column \(name)" } else { "" }
        self.init(
            source: source, input: "\(Formatting.count(pipeline.recording.rawBeats, "RR interval")) in \(unit.rawValue)\(column)",
            correction: pipeline.configuration.correction, totals: pipeline.recording, variability: analysis.variability,
            detections: pipeline.detections, judge: analysis.judge)
    }

    public func rendered(as format: OutputFormat) -> String {
        switch format {
        case .json: json.serialized + "\n"
        case .csv: csv
        case .text: text
        }
    }

    private var artifactsObject: JSONObject {
        var artifacts = JSONObject()
        for artifact in ArtifactClass.allCases { artifacts.add(artifact.rawValue, detections[artifact]) }
        return artifacts
    }

    public var json: JSONObject {
        var object = JSONObject()
        object.add("source", source)
        object.add("beats", totals.beats)
        object.add("raw_beats", totals.rawBeats)
        object.add("duration_s", totals.durationSeconds)
        object.add("mean_nn_ms", metrics?.meanNN)
        object.add("sdnn_ms", metrics?.sdnn)
        object.add("rmssd_ms", metrics?.rmssd)
        object.add("ln_rmssd", metrics?.lnRMSSD)
        object.add("pnn50_pct", metrics?.pnn50)
        object.add("mean_hr_bpm", metrics?.meanHR)
        object.add("pnn20_pct", metrics?.pnn20)
        object.add("sdsd_ms", metrics?.sdsd)
        object.add("cvnn", metrics?.cvnn)
        object.add("sd1_ms", metrics?.sd1)
        object.add("sd2_ms", metrics?.sd2)
        object.add("sd1_sd2", metrics?.sd1sd2)
        // The keys whose values this recording is too short for (empty when long enough).
        object.addStrings("unreliable", MinimumLength.unmet(bySeconds: totals.durationSeconds).flatMap(\.keys))
        object.add("artifacts", artifactsObject)
        object.add("corrected_pct", totals.correctedPercent)
        object.add("correction", correction == nil ? "none" : "kubios-causal")
        object.add("baseline", baseline.map(JSONObject.init(baseline:)))
        object.add("stress_windows", episodes.filter { $0.kind == .stress }.map(Self.episodeObject))
        object.add("activity_windows", episodes.filter { $0.kind == .activity }.map(Self.episodeObject))
        var states = JSONObject()
        for state in StressState.allCases { states.add(state.rawValue, stateSeconds[state]) }
        object.add("state_seconds", states)
        var sources = JSONObject()
        for source in BreathingSource.allCases { sources.add(source.rawValue, breathingSourceSeconds[source] ?? 0) }
        object.add("breathing_source_seconds", sources)
        if !motionSeconds.isEmpty {
            var levels = JSONObject()
            for level in MotionSecond.Level.allCases { levels.add(level.rawValue, motionSeconds[level] ?? 0) }
            object.add("motion_seconds", levels)
        }
        object.add("suggestions", suggestions.map { suggestion in
            var item = JSONObject()
            item.addFields(of: suggestion, timeKey: "t_s")
            return item
        })
        object.add("exercises", effects.map { effect in
            var item = JSONObject()
            item.addFields(of: effect)
            return item
        })
        addVariability(to: &object)
        addECGCheck(to: &object)
        return object
    }

    /// The seconds of `file`'s accelerometer at each level.
    public static func motionSeconds(of file: SessionFile) -> [MotionSecond.Level: Int] {
        var seconds: [MotionSecond.Level: Int] = [:]
        for case .motion(let motion) in file.steps { seconds[motion.second.level, default: 0] += 1 }
        return seconds
    }

    /// Null until the session calibration has enough windows.
    private static func episodeObject(_ episode: StressEpisode) -> JSONObject {
        var object = JSONObject()
        object.addFields(of: episode)
        return object
    }

    private static let csvColumns = [
        "beats", "duration_s", "mean_nn_ms", "sdnn_ms", "rmssd_ms", "ln_rmssd", "pnn50_pct", "mean_hr_bpm",
        "pnn20_pct", "sdsd_ms", "cvnn", "sd1_ms", "sd2_ms", "sd1_sd2", "ectopic", "missed", "extra", "long_short", "implausible", "corrected_pct",
    ] + variabilityColumns

    public var csv: String {
        func cell(_ value: Double?) -> String { value.map { String($0) } ?? "" }
        let row = [
            String(totals.beats), cell(totals.durationSeconds), cell(metrics?.meanNN), cell(metrics?.sdnn),
            cell(metrics?.rmssd), cell(metrics?.lnRMSSD), cell(metrics?.pnn50), cell(metrics?.meanHR),
            cell(metrics?.pnn20), cell(metrics?.sdsd), cell(metrics?.cvnn), cell(metrics?.sd1), cell(metrics?.sd2),
            cell(metrics?.sd1sd2),
        ] + ArtifactClass.allCases.map { String(detections[$0]) } + [cell(totals.correctedPercent)] + variabilityCells.map(cell)
        return Self.csvColumns.joined(separator: ",") + "\n" + row.joined(separator: ",") + "\n"
    }

    public var text: String {
        func fixed(_ value: Double?, _ digits: Int, _ unit: String = "") -> String {
            guard let value, value.isFinite else { return "n/a" }
            return Formatting.fixed(value, digits: digits) + unit
        }
        var lines: [String] = []
        lines.append("\(source): \(input)")
        lines.append("  Duration     \(Formatting.duration(totals.durationSeconds)) (\(Formatting.count(totals.beats, "beat")))")
        lines.append("  Mean HR      \(fixed(metrics?.meanHR, 1, " bpm"))  (60000 / Mean NN)")
        lines.append("  Mean NN      \(fixed(metrics?.meanNN, 1, " ms"))")
        lines.append("  SDNN         \(fixed(metrics?.sdnn, 1, " ms"))")
        lines.append("  RMSSD        \(fixed(metrics?.rmssd, 1, " ms"))  (ln RMSSD \(fixed(metrics?.lnRMSSD, 2)))")
        lines.append("  pNN50        \(fixed(metrics?.pnn50, 1, " %"))  (of all N intervals, as NeuroKit2; pNN20 \(fixed(metrics?.pnn20, 1, " %")))")
        lines.append("  SD1 / SD2    \(fixed(metrics?.sd1, 1, " ms")) / \(fixed(metrics?.sd2, 1, " ms"))  (Poincaré; SDSD \(fixed(metrics?.sdsd, 1, " ms")))")
        lines += variabilityLines(fixed)
        for short in MinimumLength.unmet(bySeconds: totals.durationSeconds) {
            lines.append("  Unreliable   \(short.metrics): \(Formatting.duration(totals.durationSeconds)) of beats, needs at least \(Formatting.duration(short.seconds))")
        }
        if let baseline {
            lines.append("  Baseline     resting HR \(fixed(baseline.restingHR, 1, " bpm")), ln RMSSD \(fixed(baseline.lnRMSSDMean, 2)) ± \(fixed(baseline.lnRMSSDSD, 2)) (\(baseline.source.rawValue))")
            let stress = episodes.filter { $0.kind == .stress }
            let activity = episodes.filter { $0.kind == .activity }
            lines.append("  Stress       \(stress.isEmpty ? "none" : stress.map(Self.span).joined(separator: ", "))")
            lines.append("  Activity     \(activity.isEmpty ? "none" : activity.map(Self.span).joined(separator: ", "))")
            let states = StressState.allCases.compactMap { state in
                stateSeconds[state] >= 0.5 ? "\(state.label) \(Formatting.clock(stateSeconds[state]))" : nil
            }
            lines.append("  States       \(states.joined(separator: ", "))")
        } else {
            lines.append("  Baseline     not measured: needs about 3 minutes at rest at the start")
        }
        let accelerometer = motionSeconds.values.reduce(0, +)
        if let motion = Formatting.shares(MotionSecond.Level.allCases.map { ($0.rawValue, Double(motionSeconds[$0] ?? 0)) }) {
            lines.append("  Motion       \(motion) (\(Formatting.duration(Double(accelerometer))) of the accelerometer)")
        }
        for suggestion in suggestions {
            lines.append("  Suggestion   at \(Formatting.clock(suggestion.time)): \(suggestion.reason) — try \(suggestion.pattern.name) breathing for \(Formatting.fixed(suggestion.minutes, digits: 0)) min")
            lines.append("               tip: \(suggestion.tip)")
        }
        for effect in effects {
            func describe(_ statistics: IntervalStatistics) -> String {
                "RMSSD \(fixed(statistics.rmssd, 0, " ms")), HR \(fixed(statistics.meanHR, 0, " bpm"))"
            }
            lines.append("  Exercise     \(Formatting.clock(effect.start))–\(Formatting.clock(effect.end)): before \(describe(effect.before)); during \(describe(effect.during)); after \(describe(effect.after))"
                + (effect.coherence.meanScore.map { "; " + Coherence.text($0) + " during" } ?? ""))
        }
        if correction != nil {
            let counts = ArtifactClass.allCases.map { "\(detections[$0]) \($0.rawValue)" }
            lines.append("  Artifacts    \(counts.joined(separator: ", "))")
            lines.append("  Corrected    \(fixed(totals.correctedPercent, 1, " %")) of beats (causal Kubios method, look-ahead \(ArtifactCorrector.lookahead) beats)")
        } else {
            lines.append("  Correction   off: intervals analysed as given")
        }
        lines += ecgCheckLines(fixed)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `10:05–15:10 (peak 87)`.
    private static func span(_ episode: StressEpisode) -> String {
        let peak = episode.peakLevel.map { " (peak \(Int($0.rounded())))" } ?? ""
        return "\(Formatting.clock(episode.start))–\(Formatting.clock(episode.end))\(peak)"
    }
}
