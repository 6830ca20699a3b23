import HRV

/// A recording run through the pipeline with everything judged per beat: stress, suggestions,
/// exercise effects, and series rows when asked. `analyze` and `baseline add` share it.
struct RecordingAnalysis {
    var detector: StressDetector
    var coach = BreathingCoach()
    var effects: [ExerciseEffect] = []
    var writer: SeriesWriter?
    private(set) var episodes: [StressEpisode] = []
    private(set) var suggestions: [BreathingCoach.Suggestion] = []

    /// Feeds every interval, releases the look-ahead and closes open episodes.
    mutating func run(_ intervals: [RRInterval], through pipeline: inout HRVPipeline, output: inout FileStream) {
        writer?.writeHeader(to: &output)
        // Closure literals at each call, not a stored closure: captured variables then stay
        // unboxed and unchecked, which is a third of the per-beat cost otherwise.
        for interval in intervals { pipeline.append(interval) { observe($0, to: &output) } }
        pipeline.finish { observe($0, to: &output) }
        detector.finish { episodes.append($0) }
    }

    private mutating func observe(_ update: HRVUpdate, to output: inout FileStream) {
        let assessment = detector.update(update) { episodes.append($0) }
        if let suggestion = coach.consider(assessment, window: update.rmssdWindow, baseline: detector.baseline, at: update.beat.seconds) {
            suggestions.append(suggestion)
        }
        for index in effects.indices { effects[index].observe(update.beat) }
        writer?.write(update, assessment, to: &output)
    }
}
