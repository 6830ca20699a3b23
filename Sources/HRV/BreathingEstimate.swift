/// Breathing as the RR series shows it. Each breath speeds the heart on inhalation and slows it
/// on exhalation (respiratory sinus arrhythmia), so the breathing rate is the respiratory peak of
/// the RR spectrum (Schäfer & Kratky 2008, "Estimation of breathing rate from respiratory sinus
/// arrhythmia"). Slow breathing near 6/min (0.1 Hz) resonates with the baroreflex and turns the
/// spectrum into one tall low-frequency peak (Lehrer & Gevirtz 2014; Shaffer & Meehan 2020); at
/// spontaneous rates the peak sits in the HF band (0.15–0.4 Hz) above a spread of slower waves
/// (Mayer waves near 0.1 Hz, 1/f wander). Pure.
public struct BreathingEstimate: Equatable, Sendable {
    /// Breaths per minute.
    public var rate: Double
    /// Share of the 0.04–0.5 Hz power within ±`peakHalfWidth` of the dominant peak, 0–1: one
    /// regular rhythm dominating, as in paced breathing, gives a high share.
    public var concentration: Double
    /// Slow, regular breathing (≤ 9/min with a concentrated peak): paced or resonance breathing.
    public var isSlow: Bool
    /// Power within ±`peakHalfWidth` of the peak, ms². Mayer waves make a concentrated slow peak
    /// too when vagal RSA is withdrawn (stress, standing), but a small one; breathing at 6/min
    /// swings RR by several times the resting beat-to-beat variation.
    public var peakPower: Double
    /// The highest peak at 7/min or faster, breaths per minute: the spontaneous breathing rate
    /// when the slow peak is a Mayer wave rather than breathing. Equal to `rate` when not slow.
    public var spontaneousRate: Double

    /// The band searched for breathing: 3–30 breaths per minute.
    public static let band = 0.05...0.5
    /// Half-width of the dominant peak's band: the 0.03 Hz window of HeartMath's coherence ratio.
    public static let peakHalfWidth = Coherence.peakHalfWidth
    /// Upper edge of slow breathing: 9/min (0.15 Hz, the LF/HF boundary).
    public static let slowLimit = 0.15
    /// Lowest spontaneous rate read from the HF side when no slow rhythm dominates: 7/min.
    public static let spontaneousFloor = 0.12
    /// Concentration above which a low-frequency peak is breathing rather than Mayer waves:
    /// resting spectra spread their power (Mayer waves ~0.1 Hz carry a fraction of it), while
    /// breathing at 6/min puts most of it in one peak.
    public static let slowConcentration = 0.4

    public init(rate: Double, concentration: Double, isSlow: Bool, peakPower: Double, spontaneousRate: Double) {
        self.rate = rate
        self.concentration = concentration
        self.isSlow = isSlow
        self.peakPower = peakPower
        self.spontaneousRate = spontaneousRate
    }

    /// Band power below which a series is flat: far under what the strap's 1/1024 s resolution
    /// alone leaves (~0.1 ms²), so only the rounding residue of a constant series is below it.
    public static let minimumPower = 1e-6

    /// Nil when the spectrum has no power in the band (a flat series).
    public init?(spectrum: RRSpectrum) {
        let (low, high) = (Self.band.lowerBound, Self.band.upperBound)
        let total = spectrum.power(from: low, to: high)
        guard total > Self.minimumPower, let dominant = spectrum.peak(from: low, to: high) else { return nil }
        guard let spontaneous = spectrum.peak(from: Self.spontaneousFloor, to: high) else { return nil }
        let peakPower = spectrum.power(from: dominant - Self.peakHalfWidth, to: dominant + Self.peakHalfWidth + 1e-9)
        if dominant <= Self.slowLimit, peakPower / total >= Self.slowConcentration {
            self.init(
                rate: dominant * 60, concentration: peakPower / total, isSlow: true, peakPower: peakPower,
                spontaneousRate: spontaneous * 60)
            return
        }
        let power = spectrum.power(from: spontaneous - Self.peakHalfWidth, to: spontaneous + Self.peakHalfWidth + 1e-9)
        self.init(rate: spontaneous * 60, concentration: power / total, isSlow: false, peakPower: power, spontaneousRate: spontaneous * 60)
    }
}
