import RealModule

/// What one step of a resonance assessment measured, from its scored part (the step less its
/// settling seconds). Heart rate is 60 / RR, placed at the middle of its interval (the interval
/// is the rate's average over it).
public struct ResonanceStep: Equatable, Sendable {
    /// The pacer's rate, breaths per minute.
    public var rate: Double
    /// Usable beats in the scored part.
    public var beats: Int
    /// Breaths of the pacer wholly inside the scored part with at least 3 beats each.
    public var breaths: Int
    /// Peak-to-trough heart rate: the mean over those breaths of max − min HR in the breath, bpm.
    public var heartRateAmplitude: Double?
    /// LF power (0.04–0.15 Hz, ms²) and the LF peak (Hz), by the recording's Welch method.
    public var lf: Double?
    public var lfPeak: Double?
    /// How far HR's oscillation at the pacer frequency leads the pacer's lung volume, degrees in
    /// (−180, 180]: 0 is in phase (HR highest at full lungs), positive HR ahead.
    public var phase: Double?
    /// How alike that phase is from breath to breath: the length of the mean of the breaths'
    /// unit phase vectors, 0…1.
    public var phaseConsistency: Double?
    /// Share of HR's variance about its trend explained by one sinusoid at the pacer frequency,
    /// 0…1: 1 is a smooth wave locked to the breath.
    public var smoothness: Double?
    /// Why the step is not scored, nil when it is.
    public var unreliable: String?

    /// Longest break between consecutive beats (their intervals never are) in a reliable step.
    public static let maximumGapSeconds = 3.0
    /// Smallest share of the scored part that the beats' intervals must cover.
    public static let minimumCoverage = 0.9
    /// Largest share of corrected beats (as `stress.max_corrected_share`).
    public static let maximumCorrectedShare = 0.15
    public static let minimumBreaths = 3

    /// Measures step `index` of `schedule` from the corrected beats that end in its scored part.
    /// `recordingEnd` is the timeline's end (seconds): a step it cuts short is unreliable.
    public init(_ index: Int, of schedule: ResonanceProtocol, beats: ArraySlice<Beat>, recordingEnd: Double) {
        rate = schedule.rates[index]
        let span = schedule.scoredSpan(index)
        let usable = beats.filter(\.isUsable)
        self.beats = usable.count
        let cycle = 60 / rate
        let twoPi = 2 * Double.pi
        let middles = usable.map { $0.seconds - $0.interval.seconds / 2 }
        let heartRates = usable.map { 60 / $0.interval.seconds }
        let phases = middles.map { twoPi * schedule.cycles(index, at: $0) }

        // Breath by breath: the swing of heart rate, and the phase of its wave.
        var swings: [Double] = []
        var breathPhases: [Double] = []
        var first = Int((schedule.cycles(index, at: span.lowerBound) - 1e-9).rounded(.up))
        while schedule.stepStart(index) + Double(first + 1) * cycle <= span.upperBound + 1e-9 {
            let breath = schedule.stepStart(index) + Double(first) * cycle..<schedule.stepStart(index) + Double(first + 1) * cycle
            let inside = middles.indices.filter { breath.contains(middles[$0]) }
            if inside.count >= 3, let high = inside.map({ heartRates[$0] }).max(), let low = inside.map({ heartRates[$0] }).min() {
                swings.append(high - low)
            }
            if let fit = PacedOscillationFit(phases: inside.map { phases[$0] }, heartRates: inside.map { heartRates[$0] }, times: nil) {
                breathPhases.append(fit.peakPhase)
            }
            first += 1
        }
        breaths = swings.count
        heartRateAmplitude = swings.isEmpty ? nil : swings.reduce(0, +) / Double(swings.count)

        let volumePeak = twoPi * schedule.volumePeak
        if let fit = PacedOscillationFit(phases: phases, heartRates: heartRates, times: middles) {
            phase = Self.degrees(volumePeak - fit.peakPhase)
            smoothness = fit.explained
        }
        if !breathPhases.isEmpty {
            let (x, y) = breathPhases.reduce((0.0, 0.0)) { ($0.0 + Double.cos($1), $0.1 + Double.sin($1)) }
            phaseConsistency = (x * x + y * y).squareRoot() / Double(breathPhases.count)
        }
        let frequency = FrequencyDomainMetrics(beats: usable)
        lf = frequency?.lf
        lfPeak = frequency?.lfPeak

        let covered = usable.reduce(0) { $0 + $1.interval.seconds }
        let length = span.upperBound - span.lowerBound
        let corrected = beats.isEmpty ? 0 : Double(beats.count { $0.isCorrected }) / Double(beats.count)
        let gap = zip(beats, beats.dropFirst()).contains { previous, beat in
            beat.followsGap || beat.seconds - previous.seconds > Self.maximumGapSeconds
        }
        unreliable =
            if recordingEnd < span.upperBound - Self.maximumGapSeconds {
                recordingEnd <= span.lowerBound ? "not recorded" : "cut short by the recording's end"
            }
            else if gap || (beats.first?.followsGap ?? false) { "a gap in the beats" }
            else if covered < Self.minimumCoverage * length { "beats cover only \(Int((100 * covered / length).rounded())) % of it" }
            else if corrected > Self.maximumCorrectedShare { "\(Int((100 * corrected).rounded())) % of beats corrected" }
            else if breaths < Self.minimumBreaths || heartRateAmplitude == nil || lf == nil || phase == nil { "too few breaths" }
            else { nil }
    }

    public init(
        rate: Double, beats: Int, breaths: Int, heartRateAmplitude: Double?, lf: Double?, lfPeak: Double?, phase: Double?,
        phaseConsistency: Double?, smoothness: Double?, unreliable: String?
    ) {
        self.rate = rate
        self.beats = beats
        self.breaths = breaths
        self.heartRateAmplitude = heartRateAmplitude
        self.lf = lf
        self.lfPeak = lfPeak
        self.phase = phase
        self.phaseConsistency = phaseConsistency
        self.smoothness = smoothness
        self.unreliable = unreliable
    }

    /// Radians to degrees in (−180, 180].
    static func degrees(_ radians: Double) -> Double {
        var value = (radians * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
        if value > 180 { value -= 360 }
        if value <= -180 { value += 360 }
        return value
    }

    /// Phase synchrony as one number, 0…1: the cosine of the phase (1 in phase, 0 at 90° or
    /// beyond) times its breath-to-breath consistency.
    public var synchrony: Double? {
        guard let phase, let phaseConsistency else { return nil }
        return max(0, Double.cos(phase * Double.pi / 180)) * phaseConsistency
    }
}
