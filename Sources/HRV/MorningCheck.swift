import RealModule

/// A morning readiness measurement: minutes at rest, measured on the corrected beats after a
/// settling period (the first seconds after lying or sitting down are not at rest yet). Time is
/// the beats' own (RR seconds since the first beat), so the measurement is as long as the heart
/// says, whatever the link did.
public struct MorningCheck: Equatable, Sendable {
    public let settleSeconds: Double
    public let measureSeconds: Double
    private var statistics = IntervalStatistics()
    /// The previous beat inside the measured span, for successive differences.
    private var previous: Beat?
    private var correctedBeats = 0
    /// RR seconds of the beats seen so far.
    public private(set) var elapsed = 0.0

    public init(settleSeconds: Double, measureSeconds: Double) {
        self.settleSeconds = settleSeconds
        self.measureSeconds = measureSeconds
    }

    public var totalSeconds: Double { settleSeconds + measureSeconds }
    public var isSettling: Bool { elapsed < settleSeconds }
    public var isComplete: Bool { elapsed >= totalSeconds }

    /// A beat of the corrected timeline, in order.
    public mutating func add(_ beat: Beat) {
        elapsed = max(elapsed, beat.seconds)
        // A beat belongs to the span when its whole interval does.
        let start = beat.seconds - beat.interval.seconds
        guard start >= settleSeconds, beat.seconds <= totalSeconds else { return }
        guard beat.isUsable else {
            previous = nil
            return
        }
        statistics.add(beat.interval)
        if beat.isCorrected { correctedBeats += 1 }
        if let previous, beat.formsDifference(after: previous) { statistics.addDifference(previous.interval, beat.interval) }
        previous = beat
    }

    public struct Result: Equatable, Sendable {
        public var rmssd: Double
        public var lnRMSSD: Double
        public var heartRate: Double
        public var beats: Int
        /// Share of the measured beats changed by artifact correction, percent.
        public var correctedPercent: Double
    }

    /// The measured span's RMSSD, ln RMSSD and heart rate (60,000 / mean NN); nil before it has
    /// two successive differences.
    public var result: Result? {
        guard statistics.differenceCount >= 2, let rmssd = statistics.rmssd, rmssd > 0, let heartRate = statistics.meanHR
        else { return nil }
        return Result(
            rmssd: rmssd, lnRMSSD: Double.log(rmssd), heartRate: heartRate, beats: statistics.count,
            correctedPercent: 100 * Double(correctedBeats) / Double(statistics.count))
    }
}
