/// Cardiac coherence of a stretch of RR: how much of the heart-rate variability one slow rhythm
/// carries. HeartMath's coherence ratio (McCraty, Atkinson, Tomasino & Bradley 2009, "The
/// coherent heart", Integral Review 5(2), p. 62): find the highest peak of the RR spectrum in
/// 0.04–0.26 Hz, integrate the power in a window 0.030 Hz wide centred on it (the peak power),
/// and compare it with the total power of the spectrum. hrvmon's `score` is the peak's share of
/// the total, 0–1; HeartMath's ratio peak / (total − peak) is `ratio`, the same ordering
/// (ratio = score / (1 − score)). Resonance breathing at about 6/min makes one tall peak near
/// 0.1 Hz and a score near 1; spontaneous breathing, talking or stress spread the power and give
/// a low one. Pure.
public struct Coherence: Equatable, Sendable {
    /// Peak power over total power, 0–1.
    public var score: Double
    /// The dominant peak's frequency, Hz.
    public var peakFrequency: Double
    /// What placed the peak: the chest's breathing rate, or the spectrum's highest peak (`rr`).
    public var source: BreathingSource

    /// Where the dominant peak is searched for.
    public static let peakBand = 0.04...0.26
    /// Half the width of the window integrated around the peak (0.030 Hz in all).
    public static let peakHalfWidth = 0.015
    /// The spectrum's total: VLF to the top of HF, as the Task Force's bands (0.0033–0.4 Hz).
    public static let totalBand = 0.0033...0.4
    /// Frequency step of the spectrum: 1/256 Hz, so the 0.030 Hz window holds whole bins either
    /// side of the peak even on a 64-s window (whose own resolution is 1/64 Hz).
    public static let resolution = 1.0 / 256

    public init(score: Double, peakFrequency: Double, source: BreathingSource = .rr) {
        self.score = score
        self.peakFrequency = peakFrequency
        self.source = source
    }

    /// HeartMath's ratio: peak power over the power outside the peak.
    public var ratio: Double { score < 1 ? score / (1 - score) : .infinity }

    /// The coherence of beats (times in seconds, increasing; each beat's interval in ms): the RR
    /// spectrum (``RRSpectrum``: 4 Hz linear resampling, linear detrend, Hann window) over
    /// ``totalBand``. Nil when the series is too short for a spectrum or flat.
    ///
    /// With `breathingFrequency` (Hz, the chest's breathing rate) in ``peakBand``, the peak is
    /// the spectrum's highest within ±``peakHalfWidth`` of it: the heart's rhythm at the breath,
    /// not a Mayer wave or a slow drift that happens to be taller.
    public init?(times: [Double], intervals: [Double], breathingFrequency: Double? = nil) {
        guard let spectrum = RRSpectrum(
            times: times, intervals: intervals, band: Self.totalBand, resolution: Self.resolution)
        else { return nil }
        let total = spectrum.power(from: Self.totalBand.lowerBound, to: Self.totalBand.upperBound + 1e-9)
        let chest = breathingFrequency.flatMap { Self.peakBand.contains($0) ? $0 : nil }
        let searched = chest.map { ($0 - Self.peakHalfWidth)...($0 + Self.peakHalfWidth) } ?? Self.peakBand
        guard total > BreathingEstimate.minimumPower,
              let peak = spectrum.peak(from: searched.lowerBound, to: searched.upperBound)
        else { return nil }
        let peakPower = spectrum.power(from: peak - Self.peakHalfWidth, to: peak + Self.peakHalfWidth + 1e-9)
        self.init(score: min(1, peakPower / total), peakFrequency: peak, source: chest == nil ? .rr : .chest)
    }
}

/// Coherence read live during a breathing exercise: every 5 s, over the last 64 s of corrected
/// beats (the window and update HeartMath's feedback uses), once 64 s of continuous beats are
/// in. A gap starts the window afresh. The mean of the readings is the exercise's score.
public struct CoherenceMeter: Equatable, Sendable {
    public static let window = 64.0
    public static let interval = 5.0

    /// The newest reading; nil before the first and after a gap until the window refills.
    public private(set) var latest: Coherence?
    public private(set) var readings = 0
    private var scoreSum = 0.0
    private var peakSum = 0.0
    /// Beat times (s) and intervals (ms) of the continuous stretch, from `first` on.
    private var times: [Double] = []
    private var intervals: [Double] = []
    private var first = 0
    /// Where the continuous stretch began: the start of its first beat's interval.
    private var stretchStart: Double?
    private var nextReading = -Double.infinity

    public init() {}

    /// The mean score of the readings so far; nil without one.
    public var meanScore: Double? { readings > 0 ? scoreSum / Double(readings) : nil }
    /// The mean frequency of the readings' peaks, Hz: the rate the exercise was breathed at.
    public var meanPeakFrequency: Double? { readings > 0 ? peakSum / Double(readings) : nil }

    /// Adds a placed beat; a reading is taken when one is due, its peak at `breathingFrequency`
    /// (Hz, the chest's breathing rate) when there is one.
    public mutating func add(_ beat: Beat, breathingFrequency: Double? = nil) {
        if beat.followsGap { restart() }
        guard beat.isUsable else { return }
        let time = beat.seconds
        if stretchStart == nil { stretchStart = time - beat.interval.seconds }
        times.append(time)
        intervals.append(beat.interval.milliseconds)
        while time - times[first] > Self.window { first += 1 }
        // Compact now and then rather than shifting the arrays every beat.
        if first > 256 {
            times.removeFirst(first)
            intervals.removeFirst(first)
            first = 0
        }
        guard let stretchStart, time - stretchStart >= Self.window, time >= nextReading else { return }
        nextReading = time + Self.interval
        guard let reading = Coherence(
            times: Array(times[first...]), intervals: Array(intervals[first...]), breathingFrequency: breathingFrequency)
        else { return }
        latest = reading
        readings += 1
        scoreSum += reading.score
        peakSum += reading.peakFrequency
    }

    private mutating func restart() {
        times.removeAll(keepingCapacity: true)
        intervals.removeAll(keepingCapacity: true)
        first = 0
        stretchStart = nil
        latest = nil
        nextReading = -.infinity
    }
}
