import HRV
import SessionLog

extension ECGCheck {
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
        self.init(peaksFound: peaks.count, ecgSeconds: seconds, agreement: RRAgreement(beats: file.beatsTimedByRR, peaks: peaks))
    }
}
