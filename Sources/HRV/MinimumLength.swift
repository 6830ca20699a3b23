/// How much recording a metric needs before its value means something. RMSSD and pNN50 settle
/// from about a minute of beats (ultra-short RMSSD agrees with 5-minute values from 60 s: Esco &
/// Flatt 2014; Munoz et al. 2015); SDNN, SD2 and the other overall-variability measures are
/// defined on the standard 5-minute short-term recording (Task Force 1996) and grow with length.
public struct MinimumLength: Equatable, Sendable {
    /// What the requirement is for, as a reader says it ("RMSSD, SDSD, SD1 and pNN50").
    public var metrics: String
    /// The JSON keys of `analyze` it covers.
    public var keys: [String]
    public var seconds: Double

    public static let all = [
        MinimumLength(
            metrics: "RMSSD, SDSD, SD1 and pNN50/pNN20", keys: ["rmssd_ms", "ln_rmssd", "sdsd_ms", "sd1_ms", "pnn50_pct", "pnn20_pct"],
            seconds: 60),
        MinimumLength(metrics: "SDNN, CVNN and SD2", keys: ["sdnn_ms", "cvnn", "sd2_ms", "sd1_sd2"], seconds: 300),
        // LF needs ten of its slowest cycles (25 s at 0.04 Hz), and one whole 256-s Welch segment;
        // DFA α2's boxes reach 64 beats, SampEn wants some hundreds of intervals (Task Force 1996;
        // Shaffer & Ginsberg 2017).
        MinimumLength(
            metrics: "the frequency domain, the breathing rate, DFA, SampEn and the stress index",
            keys: ["frequency", "respiration_rate_bpm", "nonlinear", "baevsky_si", "baevsky_si_sqrt"], seconds: 300),
    ]

    /// The requirements a recording of `seconds` falls short of. A recording cut at 5 minutes
    /// sums to a beat less, so 2 % short still counts.
    public static func unmet(bySeconds seconds: Double) -> [MinimumLength] {
        all.filter { seconds < 0.98 * $0.seconds }
    }
}
