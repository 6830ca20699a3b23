/// The research measures of a whole recording, on the artifact-corrected NN series that SDNN and
/// RMSSD use: the frequency domain (``FrequencyDomainMetrics``), DFA α1/α2
/// (``DetrendedFluctuation``), sample entropy (``RecordingSampleEntropy``) and Baevsky's stress
/// index (``BaevskyStressIndex``). Fed beat by beat, in memory that does not grow with the
/// recording (an hour of intervals at most, for the entropy).
public struct RecordingVariability {
    private var resampler = SplineResampler(sampleRate: FrequencyDomainMetrics.sampleRate)
    private var welch = FrequencyDomainMetrics.welchSpectrum()
    private var fluctuation = DetrendedFluctuation()
    private var entropy = RecordingSampleEntropy()
    private var baevsky = BaevskyStressIndex()

    public init() {}

    /// Adds a beat of the corrected timeline; unusable ones (implausible intervals) are left out.
    public mutating func add(_ beat: Beat) {
        guard beat.isUsable else { return }
        resampler.append(time: beat.seconds, value: beat.interval.milliseconds) { welch.append(contentsOf: $0) }
        fluctuation.add(beat.interval)
        entropy.add(beat.interval, start: beat.seconds - beat.interval.seconds)
        baevsky.add(beat.interval)
    }

    /// The measures of everything added.
    public mutating func finish() -> VariabilityMetrics {
        resampler.finish { welch.append(contentsOf: $0) }
        let frequency = welch.density().map {
            FrequencyDomainMetrics(frequencies: $0.frequencies, density: $0.density, segments: $0.segments)
        }
        let (alpha1, alpha2) = fluctuation.alphas
        let sampleEntropy = entropy.finish()
        return VariabilityMetrics(
            frequency: frequency, dfaAlpha1: alpha1, dfaAlpha2: alpha2, sampleEntropy: sampleEntropy.value,
            sampleEntropySegments: sampleEntropy.segments, baevsky: baevsky.value)
    }
}

/// What ``RecordingVariability`` measured; each nil where the recording is too short or flat.
public struct VariabilityMetrics: Equatable, Sendable {
    public var frequency: FrequencyDomainMetrics?
    public var dfaAlpha1: Double?
    public var dfaAlpha2: Double?
    public var sampleEntropy: Double?
    /// The 5-minute segments averaged for the entropy; nil when it is of the whole record.
    public var sampleEntropySegments: Int?
    public var baevskyIndex: Double?
    /// √ of the index: Kubios's "Stress index".
    public var baevskyIndexRoot: Double?

    public init(
        frequency: FrequencyDomainMetrics?, dfaAlpha1: Double?, dfaAlpha2: Double?, sampleEntropy: Double?,
        sampleEntropySegments: Int?, baevsky: (index: Double, squareRoot: Double)?
    ) {
        self.frequency = frequency
        self.dfaAlpha1 = dfaAlpha1
        self.dfaAlpha2 = dfaAlpha2
        self.sampleEntropy = sampleEntropy
        self.sampleEntropySegments = sampleEntropySegments
        baevskyIndex = baevsky?.index
        baevskyIndexRoot = baevsky?.squareRoot
    }
}
