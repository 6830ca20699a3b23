/// The stepped pacer of a resonance-frequency assessment (Lehrer, Vaschillo & Vaschillo 2000;
/// Shaffer & Meehan 2020): a run of breathing rates held for equal steps, each step starting
/// with an inhale at its boundary and breathing the resonance pattern (inhale:exhale 4:6 by
/// default) at its rate, so the pacer's phase is known at every moment from the schedule alone.
/// The first `settleSeconds` of each step (getting used to the new rate, and the heart's
/// response to it building up) are left out of its scoring.
public struct ResonanceProtocol: Equatable, Sendable {
    /// Breaths per minute, one per step, in the order breathed.
    public var rates: [Double]
    public var stepSeconds: Double
    /// Where each step starts, seconds from the timeline's origin (the start of the first
    /// interval): one after the other from the first, or where a live run placed them.
    public var starts: [Double]
    public var settleSeconds: Double
    /// The inhale's share of each breath.
    public var inhaleShare: Double

    /// The classic protocol: 6.5 down to 4.5 breaths a minute in half-breath steps.
    public static let standardRates = [6.5, 6.0, 5.5, 5.0, 4.5]
    public static let standardStepSeconds = 120.0
    /// Long enough for the new rhythm and the slow baroreflex response (time constants of 10–20 s)
    /// to settle, short enough to leave most of a 2-minute step scored.
    public static let standardSettleSeconds = 30.0
    /// Valid rates: the range the model assumes for adults and children (4.5–6.5 and 6.5–9.5 a
    /// minute), with room on both sides.
    public static let rateRange = 3.0...12.0

    public init(
        rates: [Double] = Self.standardRates, stepSeconds: Double = Self.standardStepSeconds, start: Double = 0,
        settleSeconds: Double = Self.standardSettleSeconds, inhaleShare: Double = 0.4
    ) {
        self.init(
            rates: rates, starts: rates.indices.map { start + Double($0) * stepSeconds }, stepSeconds: stepSeconds,
            settleSeconds: settleSeconds, inhaleShare: inhaleShare)
    }

    /// Steps starting at `starts` (increasing, at least a step apart), one per rate.
    public init(rates: [Double], starts: [Double], stepSeconds: Double, settleSeconds: Double, inhaleShare: Double) {
        precondition(rates.count == starts.count, "one start per step")
        self.rates = rates
        self.starts = starts
        self.stepSeconds = stepSeconds
        self.settleSeconds = min(settleSeconds, stepSeconds / 2)
        self.inhaleShare = inhaleShare
    }

    public var start: Double { starts.first ?? 0 }
    public var end: Double { (starts.last ?? 0) + stepSeconds }

    /// The step running at `time` (seconds on the timeline), nil outside every step.
    public func step(at time: Double) -> Int? {
        guard let index = starts.lastIndex(where: { $0 <= time }), time < starts[index] + stepSeconds else { return nil }
        return index
    }

    public func stepStart(_ step: Int) -> Double { starts[step] }
    /// The part of a step that is scored.
    public func scoredSpan(_ step: Int) -> Range<Double> { starts[step] + settleSeconds..<starts[step] + stepSeconds }

    /// Breaths (fractional) since the step's start at `time`: an inhale begins at each integer.
    public func cycles(_ step: Int, at time: Double) -> Double { (time - stepStart(step)) * rates[step] / 60 }

    /// Where in the breath, as a fraction of it, the fundamental of the pacer's lung volume peaks.
    /// The bar fills linearly on the inhale (share s) and empties linearly on the exhale; that
    /// triangle's first Fourier coefficient is −(1 − e^(−2πis)) / (4π²s(1 − s)), whose cosine
    /// peaks at 1/4 + s/2 of the breath (at 0.45 for 4:6, at the half for 5:5).
    public var volumePeak: Double { 0.25 + inhaleShare / 2 }
}
