import RealModule

/// How a kind of segment distributes its beat-to-beat variability, and how
/// fast the body moves toward it.
struct KindProfile {
    /// Share of the target RMSSD² carried by respiratory sinus arrhythmia.
    var rsaShare: Double
    /// Mayer-wave (~0.1 Hz baroreflex) RR amplitude as a multiple of target RMSSD.
    var mayerFactor: Double
    /// Standard deviation of the slow (1/f) heart-rate wander (bpm).
    var slowSD: Double
    /// Relative breath-to-breath variability of the respiratory frequency.
    var breathCV: Double
    /// Relative breath-to-breath variability of the breath's depth (its RSA amplitude).
    var breathDepthCV: Double = 0.15
    /// Time constant (s) with which base HR approaches this segment's target.
    var hrTau: Double
    /// Time constant (s) with which HRV amplitudes approach this segment's targets.
    var ampTau: Double

    static func of(_ kind: SegmentKind) -> KindProfile {
        switch kind {
        case .rest:
            KindProfile(rsaShare: 0.72, mayerFactor: 0.40, slowSD: 1.5, breathCV: 0.10, hrTau: 25, ampTau: 25)
        case .stress:
            // Vagal withdrawal: less RSA, relatively more LF (sympathetic); shallow, even breaths.
            KindProfile(rsaShare: 0.55, mayerFactor: 0.70, slowSD: 1.5, breathCV: 0.08, breathDepthCV: 0.1, hrTau: 20, ampTau: 25)
        case .breathing:
            // Paced 0.1 Hz breathing entrains the baroreflex: RSA dominates.
            KindProfile(rsaShare: 0.95, mayerFactor: 0.05, slowSD: 1.0, breathCV: 0.015, breathDepthCV: 0.05, hrTau: 20, ampTau: 20)
        case .activity:
            KindProfile(rsaShare: 0.35, mayerFactor: 0.40, slowSD: 2.0, breathCV: 0.06, hrTau: 20, ampTau: 20)
        case .recovery:
            KindProfile(rsaShare: 0.70, mayerFactor: 0.40, slowSD: 1.5, breathCV: 0.10, hrTau: 40, ampTau: 30)
        case .talking:
            // Speech sets the breathing: irregular timing, deep and shallow breaths mixed.
            KindProfile(rsaShare: 0.65, mayerFactor: 0.45, slowSD: 1.8, breathCV: 0.35, breathDepthCV: 0.5, hrTau: 15, ampTau: 20)
        case .standing:
            // Orthostatic: vagal withdrawal, baroreflex (LF) activity up; HR moves within seconds.
            KindProfile(rsaShare: 0.5, mayerFactor: 0.9, slowSD: 1.5, breathCV: 0.10, hrTau: 4, ampTau: 20)
        }
    }
}

enum Physiology {
    /// One 1/1024 s tick, in seconds.
    static let tick = 1.0 / 1024.0
    /// Mean Mayer-wave frequency (Hz).
    static let mayerFrequency = 0.1
    /// Correlation times (s) of the slow heart-rate wander's components: AR(1) processes of
    /// equal variance at time constants spaced by four approximate a 1/f spectrum between them
    /// (the long-range correlated HR fluctuations of Kobayashi & Musha 1982).
    static let slowTaus = [10.0, 40.0, 160.0, 640.0]
    /// Correlation time (s) of the breath-depth variability.
    static let breathDepthTau = 5.0
    /// Recovery after exercise: the share of the HR excess that decays slowly, its time constant
    /// and that of the RMSSD deficit (s). Fast component: the segment's `hrTau`.
    static let recoverySlowHRShare = 0.4
    static let recoverySlowHRTau = 900.0
    static let recoveryHRVTau = 1200.0
    /// Standing up: peak of the initial HR overshoot above the standing target (bpm), reached
    /// this many seconds after the change; and the fast HR time constant (s) for the first
    /// `postureSettling` seconds after sitting down again.
    static let standingOvershoot = 12.0
    static let standingOvershootPeak = 8.0
    static let sittingHRTau = 6.0
    static let postureSettling = 30.0
    /// Correlation time (s) of the breath-to-breath frequency variability.
    static let breathTau = 6.0
    /// Correlation time (s) and relative SD of the Mayer-wave frequency wander.
    static let mayerTau = 20.0
    static let mayerCV = 0.08
    /// Time constant (s) with which HRV amplitudes fall (vagal withdrawal);
    /// they rise with the segment's slower `ampTau`.
    static let withdrawalTau = 12.0
    /// Time constant (s) of the breathing-rate lag between segments.
    static let breathRateTau = 8.0
    /// Instantaneous heart rate is kept within these bounds (bpm).
    static let minHR = 20.0
    static let maxHR = 300.0
}

/// Steady-state modulation amplitudes of one segment, in the RR domain.
///
/// The calibration inverts the successive-difference variance of each
/// component sampled once per beat (period T = 60/HR):
///
/// - sinusoid of RR amplitude A at frequency f: RMSSD² = 2·A²·sin²(π f T)
/// - white RR jitter of SD σ: RMSSD² = 2σ²
/// - AR(1) wander of SD s and correlation time τ: RMSSD² = 2s²(1 − e^(−T/τ))
/// - beat-time quantisation to 1/1024 s: RMSSD² ≈ 6·tick²/12
///
/// and the components add in variance. IPFM averages the rate over each
/// interval, which attenuates a sinusoid by sinc(π f T); the HR-domain
/// amplitude is divided by that factor so the RR amplitude lands on target.
struct Calibration: Equatable {
    var heartRate: Double        // bpm
    var period: Double { 60 / heartRate }  // s
    var breathHz: Double         // Hz
    var rsaRR: Double            // s, RR amplitude of RSA
    var mayerRR: Double          // s, RR amplitude of the Mayer wave
    var jitterRR: Double         // s, SD of white RR jitter
    var slowSD: Double           // bpm, SD of slow HR wander
    var breathCV: Double

    init(segment: Segment) {
        let p = KindProfile.of(segment.kind)
        let hr = min(max(segment.heartRate, Physiology.minHR), Physiology.maxHR)
        let T = 60 / hr
        let r = max(segment.rmssd, 0) / 1000
        let r2 = r * r
        let f = max(segment.breathingRate, 0.5) / 60
        heartRate = hr
        breathHz = f
        breathCV = p.breathCV

        let quant = 0.5 * Physiology.tick * Physiology.tick
        var mayer = p.mayerFactor * r
        var slow = p.slowSD
        let sm = Double.sin(Double.pi * Physiology.mayerFrequency * T)
        let slowRR = 60 / (hr * hr)  // s of RR per bpm
        let ouShare = 2 * Physiology.slowTaus.reduce(0) { $0 + (1 - Double.exp(-T / $1)) } / Double(Physiology.slowTaus.count)
        var cMayer = 2 * mayer * mayer * sm * sm
        var cSlow = ouShare * (slow * slowRR) * (slow * slowRR)
        // Leave at least 3 % of the variance to beat-to-beat jitter.
        let room = max(0, (1 - p.rsaShare - 0.03) * r2)
        if cMayer + cSlow > room {
            let k = (room / (cMayer + cSlow)).squareRoot()
            mayer *= k; slow *= k
            cMayer *= k * k; cSlow *= k * k
        }
        let sr = max(abs(Double.sin(Double.pi * f * T)), 0.25)
        // Varying breath depth adds variance: E[(1 + cv·z)²] = 1 + cv².
        let depth = (1 + p.breathDepthCV * p.breathDepthCV).squareRoot()
        let rsa = min((p.rsaShare * r2 / 2).squareRoot() / sr / depth, 0.3 * T)
        let cRSA = 2 * rsa * rsa * sr * sr * depth * depth
        let rest = max(r2 - cRSA - cMayer - cSlow - quant, 0.02 * r2)
        rsaRR = rsa
        mayerRR = mayer
        slowSD = slow
        jitterRR = (rest / 2).squareRoot()
    }
}

extension Calibration {
    /// A paced breathing segment of a subject with `resonance`: RSA is the drive — what the
    /// segment's targets give when breathing at the resonance — times the resonator's gain at the
    /// segment's rate; the other components are the segment's own.
    init(paced segment: Segment, resonance: BaroreflexResonance) {
        self.init(segment: segment)
        var drive = segment
        drive.breathingRate = resonance.driveRate
        rsaRR = Calibration(segment: drive).rsaRR * resonance.response(at: segment.breathingRate).gain
    }
}

/// Normal deviates from a `SeededGenerator` (Box–Muller, both values used).
struct GaussianSource {
    var rng: SeededGenerator
    private var spare: Double = 0
    private var hasSpare = false

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    mutating func next() -> Double {
        if hasSpare {
            hasSpare = false
            return spare
        }
        let u1 = 1 - rng.nextUnit()  // (0, 1]
        let u2 = rng.nextUnit()
        let radius = (-2 * Double.log(u1)).squareRoot()
        let angle = 2 * Double.pi * u2
        spare = radius * Double.sin(angle)
        hasSpare = true
        return radius * Double.cos(angle)
    }

    mutating func uniform() -> Double { rng.nextUnit() }
}
