import HRV
import HeartRateProtocol

extension SessionFile {
    /// The strap's beats timed by its RR, to pair with R peaks of its ECG (`ECGCheck`). A packet's
    /// arrival is up to a notification interval (~1 s) after its last beat, too loose to pair
    /// with R peaks; within a stretch without a gap the beats are RR after RR, placed where no
    /// beat comes after its packet's arrival (the earliest arrival less the RR received up to it).
    public var beatsTimedByRR: [RRAgreement.Beat] {
        var beats: [RRAgreement.Beat] = []
        var stretch: [(seconds: Double, milliseconds: Double)] = []
        var anchor = Double.infinity
        func endStretch() {
            beats += stretch.map { RRAgreement.Beat(time: anchor + $0.seconds, milliseconds: $0.milliseconds) }
            stretch = []
            anchor = .infinity
        }
        for step in steps {
            switch step {
            case .packet(let measurement, let time):
                for ticks in measurement.rrIntervals {
                    let milliseconds = RRTicks.milliseconds(ticks)
                    stretch.append(((stretch.last?.seconds ?? 0) + milliseconds / 1000, milliseconds))
                }
                if let last = stretch.last { anchor = min(anchor, time - last.seconds) }
            case .gap: endStretch()
            case .malformed, .exercise, .desk, .motion: break
            }
        }
        endStretch()
        return beats
    }
}
