/// ln RMSSD and HR of filled, good-quality windows during session calibration.
struct CalibrationSamples {
    private var lnRMSSD: [Double] = []
    private var heartRate: [Double] = []
    private var nextSample = 0.0
    /// Seconds between samples: consecutive 60 s windows overlap almost entirely.
    static let spacing = 5.0

    mutating func add(lnRMSSD ln: Double, heartRate rate: Double, at time: Double) {
        guard time >= nextSample else { return }
        nextSample = time + Self.spacing
        lnRMSSD.append(ln)
        heartRate.append(rate)
    }

    /// Nil until at least six samples (half a minute of filled windows) exist.
    func baseline(minimumSD: Double) -> Baseline? {
        guard lnRMSSD.count >= 6 else { return nil }
        return Baseline(source: .session, lnRMSSD: lnRMSSD, restingHR: heartRate, minimumSD: minimumSD)
    }
}
