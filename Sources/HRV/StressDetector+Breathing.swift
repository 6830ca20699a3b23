import RealModule

extension StressDetector {
    /// Reads the last minute's RR spectrum. A slow concentrated peak is paced breathing when it
    /// is at least as strong as the resting beat-to-beat variation (RMSSD²); a weaker one is a
    /// Mayer wave, and the breathing rate is then the spontaneous (HF-side) peak.
    ///
    /// While the chest accelerometer reads breathing (its newest reading no older than motion
    /// stays fresh), its rate is taken instead: slow is then ≤ 9/min, with no Mayer wave to
    /// mistake for it.
    mutating func readBreathing(restingLnRMSSD: Double?, at time: Double) {
        let rate: Double
        if let chest = chestBreathingRate(at: time) {
            rate = chest
            pacedBreathing = rate <= 60 * BreathingEstimate.slowLimit
            breathingSource = .chest
        } else if let estimate = spectrum.estimate() {
            pacedBreathing = estimate.isSlow && restingLnRMSSD.map { estimate.peakPower >= Double.exp(2 * $0) } == true
            rate = pacedBreathing ? estimate.rate : estimate.spontaneousRate
            breathingSource = .rr
        } else {
            (breathingRate, pacedBreathing, breathingSource) = (nil, false, nil)
            return
        }
        breathingRate = rate
        if breathingRates.count == 3 { breathingRates.removeFirst() }
        breathingRates.append(rate)
        medianBreathingRate = Self.median(ofThree: breathingRates)
    }

    /// The chest's breathing rate (breaths per minute) while its newest reading is fresh.
    public func chestBreathingRate(at time: Double) -> Double? {
        chestBreathing.flatMap { time - $0.time <= MotionHistory.fresh ? $0.breathing.rate : nil }
    }

    /// The median of three breathing rates, nil until there are three.
    static func median(ofThree rates: [Double]) -> Double? {
        guard rates.count == 3 else { return nil }
        let (a, b, c) = (rates[0], rates[1], rates[2])
        return max(min(a, b), min(max(a, b), c))
    }
}
