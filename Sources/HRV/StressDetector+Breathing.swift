import RealModule

extension StressDetector {
    /// Reads the last minute's RR spectrum. A slow concentrated peak is paced breathing when it
    /// is at least as strong as the resting beat-to-beat variation (RMSSD²); a weaker one is a
    /// Mayer wave, and the breathing rate is then the spontaneous (HF-side) peak.
    mutating func readBreathing(restingLnRMSSD: Double?) {
        guard let estimate = spectrum.estimate() else {
            (breathingRate, pacedBreathing) = (nil, false)
            return
        }
        pacedBreathing = estimate.isSlow && restingLnRMSSD.map { estimate.peakPower >= Double.exp(2 * $0) } == true
        let rate = pacedBreathing ? estimate.rate : estimate.spontaneousRate
        breathingRate = rate
        if breathingRates.count == 3 { breathingRates.removeFirst() }
        breathingRates.append(rate)
        medianBreathingRate = Self.median(ofThree: breathingRates)
    }

    /// The median of three breathing rates, nil until there are three.
    static func median(ofThree rates: [Double]) -> Double? {
        guard rates.count == 3 else { return nil }
        let (a, b, c) = (rates[0], rates[1], rates[2])
        return max(min(a, b), min(max(a, b), c))
    }
}
