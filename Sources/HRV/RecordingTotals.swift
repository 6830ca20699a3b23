/// Whole-recording accumulation of the corrected timeline, for `analyze`-style summaries.
public struct RecordingTotals: Equatable, Sendable {
    /// Intervals fed in, before correction.
    public internal(set) var rawBeats = 0
    /// Intervals on the corrected timeline (extra beats merged, missed beats inserted).
    public private(set) var beats = 0
    /// Of `beats`, those changed or created by correction.
    public private(set) var correctedBeats = 0
    /// Timeline length in microticks.
    public private(set) var duration: Int64 = 0
    public private(set) var statistics = IntervalStatistics()
    public private(set) var corrections = ArtifactCounts()

    mutating func add(_ beat: Beat, after previous: Beat?) {
        beats += 1
        duration = beat.time
        if let artifact = beat.artifact {
            correctedBeats += 1
            corrections[artifact] += 1
        }
        guard beat.isUsable else { return }
        statistics.add(beat.interval)
        if let previous, beat.formsDifference(after: previous) {
            statistics.addDifference(previous.interval, beat.interval)
        }
    }

    /// Share of timeline beats changed by correction, in percent.
    public var correctedPercent: Double { beats > 0 ? 100 * Double(correctedBeats) / Double(beats) : 0 }
    public var durationSeconds: Double { Double(duration) / Double(RRInterval.microticksPerSecond) }
}
