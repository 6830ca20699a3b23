/// A resonance-frequency assessment from a recording's corrected beats and its step schedule:
/// each step measured (``ResonanceStep``), scored on four criteria and the best rate
/// recommended when the steps differ clearly enough. Fed beat by beat (it keeps only the beats
/// of the schedule's scored parts); pure and deterministic.
///
/// The criteria are those of the assessment protocol (Lehrer, Vaschillo & Vaschillo 2000;
/// Shaffer & Meehan 2020): peak-to-trough heart rate, LF power, phase synchrony between heart
/// rate and breathing, and a smooth heart-rate wave. Each is put on 0…1 across the reliable
/// steps — amplitude and LF power as a share of the largest, synchrony as
/// ``ResonanceStep/synchrony``, smoothness as ``ResonanceStep/smoothness`` — and the score is
/// their mean × 100 (equal weights: hrvmon's choice, the protocol ranks no weights).
public struct ResonanceAssessment {
    public let schedule: ResonanceProtocol
    private var beats: [Beat] = []
    private var lastTime = 0.0

    /// The best step is a clear resonance only when its LF power is at least this multiple of the
    /// median of the other reliable steps' (a flat response gives about 1).
    public static let minimumContrast = 1.3
    public static let minimumReliableSteps = 3

    public init(schedule: ResonanceProtocol) {
        self.schedule = schedule
    }

    public mutating func add(_ beat: Beat) {
        lastTime = max(lastTime, beat.seconds)
        guard let step = schedule.step(at: beat.seconds), schedule.scoredSpan(step).contains(beat.seconds) else { return }
        beats.append(beat)
    }

    /// The assessment of everything added; `recordingEnd` (seconds) where the timeline ends, by
    /// default at the last beat.
    public func finish(recordingEnd: Double? = nil) -> ResonanceResult {
        let end = recordingEnd ?? lastTime
        var start = beats.startIndex
        var steps: [ResonanceStep] = []
        for index in schedule.rates.indices {
            let span = schedule.scoredSpan(index)
            var stop = start
            while stop < beats.endIndex, beats[stop].seconds < span.upperBound { stop += 1 }
            steps.append(ResonanceStep(index, of: schedule, beats: beats[start..<stop], recordingEnd: end))
            start = stop
        }
        return ResonanceResult(steps: steps)
    }
}

/// The steps of an assessment with their scores and the recommendation.
public struct ResonanceResult: Equatable, Sendable {
    public var steps: [ResonanceStep]
    /// Per step, 0–100; nil for an unreliable step.
    public var scores: [Double?]
    /// The recommended rate, breaths a minute; nil when there is no clear resonance.
    public var best: Double?
    /// The step with the highest score, recommended or not.
    public var leading: Int?
    /// The leading step's LF power over the median of the other reliable steps'.
    public var contrast: Double?
    /// Why no rate is recommended, nil when one is.
    public var noRecommendation: NoRecommendation?

    public enum NoRecommendation: Equatable, Sendable {
        /// Fewer than ``ResonanceAssessment/minimumReliableSteps`` steps could be scored.
        case tooFewReliableSteps(reliable: Int)
        /// The leading step's contrast is under ``ResonanceAssessment/minimumContrast``.
        case noClearResonance
    }

    public init(steps: [ResonanceStep]) {
        self.steps = steps
        let reliable = steps.indices.filter { steps[$0].unreliable == nil }
        let largestAmplitude = reliable.compactMap { steps[$0].heartRateAmplitude }.max() ?? 0
        let largestLF = reliable.compactMap { steps[$0].lf }.max() ?? 0
        scores = steps.indices.map { index in
            let step = steps[index]
            guard step.unreliable == nil, let amplitude = step.heartRateAmplitude, let lf = step.lf,
                  let synchrony = step.synchrony, let smoothness = step.smoothness
            else { return nil }
            let criteria = [
                largestAmplitude > 0 ? amplitude / largestAmplitude : 0, largestLF > 0 ? lf / largestLF : 0, synchrony, smoothness,
            ]
            return 100 * criteria.reduce(0, +) / Double(criteria.count)
        }
        leading = reliable.max { (scores[$0] ?? 0, -$0) < (scores[$1] ?? 0, -$1) }
        if let leading, let lf = steps[leading].lf {
            let others = reliable.filter { $0 != leading }.compactMap { steps[$0].lf }.sorted()
            let median = others.isEmpty ? nil : (others[(others.count - 1) / 2] + others[others.count / 2]) / 2
            contrast = median.flatMap { $0 > 0 ? lf / $0 : nil }
        }
        if reliable.count < ResonanceAssessment.minimumReliableSteps {
            noRecommendation = .tooFewReliableSteps(reliable: reliable.count)
        } else if let contrast, contrast >= ResonanceAssessment.minimumContrast, let leading {
            best = steps[leading].rate
        } else {
            noRecommendation = .noClearResonance
        }
    }

    /// Whether the recommended rate is the fastest or slowest tried: the true resonance may lie
    /// beyond the tested range.
    public var bestIsAtEdge: Bool {
        guard let best, let low = steps.map(\.rate).min(), let high = steps.map(\.rate).max() else { return false }
        return best == low || best == high
    }
}
