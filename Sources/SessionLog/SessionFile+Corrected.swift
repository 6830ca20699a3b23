import HRV
import Settings

extension SessionFile {
    /// The corrected timeline, which version 1 files kept as `nn` lines: the packets' intervals
    /// and the gaps through the pipeline the session ran with (its header's settings), as the
    /// live session placed them. Exercises, malformed notifications and motion do not move beats.
    func replayedCorrectedBeats() throws -> [PlacedBeat] {
        let settings = try SettingsFile.parse(header.configuration, source: "the header's config")
        var pipeline = HRVPipeline(configuration: settings.pipeline)
        var placed: [PlacedBeat] = []
        placed.reserveCapacity(beats.count)
        let keep = { (update: HRVUpdate) in placed.append(PlacedBeat(update.beat)) }
        for step in steps {
            switch step {
            case .packet(let measurement, _):
                for ticks in measurement.rrIntervals { pipeline.append(RRInterval(ticks: ticks), emit: keep) }
            case .gap: pipeline.breakContinuity(emit: keep)
            case .malformed, .exercise, .desk, .motion: break
            }
        }
        pipeline.finish(emit: keep)
        return placed
    }
}

extension SessionFile.PlacedBeat {
    /// The beat as its `nn` line read back: the interval's exact milliseconds as a number.
    init(_ beat: Beat) {
        var milliseconds = beat.interval.exactMilliseconds
        self.init(
            seconds: beat.seconds, milliseconds: milliseconds.withUTF8 { NumberToken.value($0) } ?? .nan,
            kind: beat.artifact?.rawValue ?? "normal", followsGap: beat.followsGap)
    }
}
