import HRV
import HeartRateProtocol

/// The strap's RR checked against its own ECG (a session recorded with `--ecg`): the R peaks
/// found in the `ecg` lines and how the beats the strap sent agree with them (`RRAgreement`).
public struct ECGCheck: Equatable, Sendable {
    /// All R peaks found in the ECG, also where the strap sent no beats.
    public var peaksFound: Int
    /// Seconds of ECG samples recorded.
    public var ecgSeconds: Double
    public var agreement: RRAgreement

    /// The check of `file`'s beats as received; nil when it recorded no ECG. The detector streams
    /// over the `ecg` runs as they were read, so a day's ECG (~11 M samples) is not copied again.
    public init?(_ file: SessionFile) {
        guard let rate = file.ecg.first?.rate else { return nil }
        var detector = RPeakDetector(sampleRate: rate)
        var peaks: [RPeak] = []
        var seconds = 0.0
        for run in file.ecg {
            seconds += Double(run.microvolts.count) / run.rate
            peaks += detector.append(run.microvolts.indices.lazy.map { index in
                ECGSample(time: run.time(ofSample: index), microvolts: Double(run.microvolts[index]))
            })
        }
        peaks += detector.finish()
        peaksFound = peaks.count
        ecgSeconds = seconds
        agreement = RRAgreement(beats: Self.strapBeats(file.steps), peaks: peaks)
    }

    /// The strap's beats timed by its RR. A packet's arrival is up to a notification interval
    /// (~1 s) after its last beat, too loose to pair with R peaks; within a stretch without a gap
    /// the beats are RR after RR, placed where no beat comes after its packet's arrival (the
    /// earliest arrival less the RR received up to it).
    static func strapBeats(_ steps: [SessionFile.Step]) -> [RRAgreement.Beat] {
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
