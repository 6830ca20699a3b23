import RealModule

/// A subject's cardiovascular resonance, for simulating a resonance-frequency assessment.
///
/// The baroreflex loop is modelled as a second-order band-pass resonator driven by breathing
/// (Vaschillo et al. 2002, 2006: the heart rate's response to rhythmic breathing peaks at one
/// frequency, near 0.1 Hz, where heart rate and breathing oscillate in phase):
///
///     H(f) = 1 / (1 + i·Q·(f/f₀ − f₀/f))
///
/// with f₀ the resonance frequency and Q its sharpness. |H| is the share of the full response
/// breathing at f gets (1 at f₀), and arg H how far heart rate leads the breath: 0° at f₀,
/// towards +90° (HR ahead) below it and −90° (HR behind) above. During a paced breathing
/// segment the respiratory sinus arrhythmia is the drive — the amplitude the segment's targets
/// give at f₀ — times |H|, phased by arg H against the breath's lung volume.
///
/// `rate` nil is a subject without resonance: |H| = 1 and arg H = 0 at every rate.
public struct BaroreflexResonance: Sendable, Equatable {
    /// Breaths per minute of the resonance; nil for none (a flat response).
    public var rate: Double?
    /// Sharpness Q: the response falls to 1/√2 where Q·|f/f₀ − f₀/f| = 1. At Q = 3 and f₀ at
    /// 5.5 a minute, 5.0 and 6.0 get 0.87 and 0.89 of it, 4.5 and 6.5 get 0.64 and 0.71.
    public var quality: Double

    public static let defaultQuality = 3.0
    /// The drive of a flat subject is taken at this rate.
    static let flatReferenceRate = 6.0
    /// The paced breath's inhale share (the resonance pattern's 4:6).
    static let inhaleShare = 0.4

    public init(rate: Double?, quality: Double = Self.defaultQuality) {
        self.rate = rate
        self.quality = quality
    }

    /// |H| and arg H (radians) at `breathsPerMinute`.
    func response(at breathsPerMinute: Double) -> (gain: Double, lead: Double) {
        guard let rate else { return (1, 0) }
        let detuning = quality * (breathsPerMinute / rate - rate / breathsPerMinute)
        return (1 / (1 + detuning * detuning).squareRoot(), Double.atan(-detuning))
    }

    /// The rate at which the drive is calibrated: the resonance, or the reference of a flat subject.
    var driveRate: Double { rate ?? Self.flatReferenceRate }

    /// The phase (radians) of the respiratory term sin(·) at `cycles` breaths into a paced
    /// segment: heart rate peaks `lead` ahead of the lung volume's fundamental, which for a
    /// linear inhale of share s and linear exhale peaks at 1/4 + s/2 of the breath (its first
    /// Fourier coefficient is −(1 − e^(−2πis)) / (4π²s(1 − s))).
    func respiratoryPhase(cycles: Double, lead: Double) -> Double {
        let volumePeak = 2 * Double.pi * (0.25 + Self.inhaleShare / 2)
        return 2 * Double.pi * cycles - volumePeak + lead + Double.pi / 2
    }
}
