/// The frequency-domain HRV of a recording (Task Force 1996; the Kubios defaults): the NN
/// tachogram resampled at 4 Hz by a not-a-knot cubic spline, its least-squares line removed,
/// Welch's periodogram with 256-s periodic Hann segments at 50 % overlap, zero-padded to 512 s
/// (0.002 Hz bins, as NeuroKit2's `signal_power`), and band powers integrated by the trapezoid rule
/// over the bins with low ≤ f < high (NeuroKit2's rule).
public struct FrequencyDomainMetrics: Equatable, Sendable {
    /// Band powers, ms².
    public var vlf: Double
    public var lf: Double
    public var hf: Double
    /// Frequencies of the highest density in LF and HF, Hz; nil when a band holds no bin.
    public var lfPeak: Double?
    public var hfPeak: Double?
    /// Welch segments averaged (one for a recording shorter than 256 s).
    public var segments: Int

    public static let sampleRate = 4.0
    public static let segmentSeconds = 256.0
    public static let transformSeconds = 512.0
    public static let vlfBand = 0.0033..<0.04
    public static let lfBand = 0.04..<0.15
    public static let hfBand = 0.15..<0.4

    public var lfHF: Double? { hf > 0 ? lf / hf : nil }
    /// Normalised units: each band's share of LF + HF, percent.
    public var lfNU: Double? { lf + hf > 0 ? 100 * lf / (lf + hf) : nil }
    public var hfNU: Double? { lf + hf > 0 ? 100 * hf / (lf + hf) : nil }
    /// Breathing rate from the HF peak (respiratory sinus arrhythmia), breaths per minute.
    public var respirationRate: Double? { hfPeak.map { $0 * 60 } }

    public init(vlf: Double, lf: Double, hf: Double, lfPeak: Double?, hfPeak: Double?, segments: Int) {
        self.vlf = vlf
        self.lf = lf
        self.hf = hf
        self.lfPeak = lfPeak
        self.hfPeak = hfPeak
        self.segments = segments
    }

    /// From a one-sided density at evenly spaced frequencies starting at 0.
    init(frequencies: [Double], density: [Double], segments: Int) {
        func bins(_ band: Range<Double>) -> [Int] { frequencies.indices.filter { band.contains(frequencies[$0]) } }
        func power(_ band: Range<Double>) -> Double {
            let indices = bins(band)
            guard indices.count > 1 else { return 0 }
            var total = 0.0
            for (left, right) in zip(indices, indices.dropFirst()) {
                total += (density[left] + density[right]) / 2 * (frequencies[right] - frequencies[left])
            }
            return total
        }
        func peak(_ band: Range<Double>) -> Double? {
            var best: Int?
            for index in bins(band) where best.map({ density[index] > density[$0] }) ?? true { best = index }
            return best.map { frequencies[$0] }
        }
        self.init(
            vlf: power(Self.vlfBand), lf: power(Self.lfBand), hf: power(Self.hfBand),
            lfPeak: peak(Self.lfBand), hfPeak: peak(Self.hfBand), segments: segments)
    }
}
