import RealModule

/// The rolling reference stress is judged against: where RMSSD and heart rate have sat in the
/// last half hour of judged time. A fixed baseline fails a long recording — the night's RMSSD
/// makes a whole day look like stress — so the reference follows the day slowly: the 60th
/// percentile of RMSSD and the 40th of heart rate, which an 8-minute episode barely moves and a
/// change lasting most of the half hour (a new normal) takes over. Samples come every 5 s; only
/// rest-like time is sampled (never exercise, its recovery or paced breathing). The breathing
/// rate at rest is kept too (its median), for the stress rule's "breathing faster".
struct RestingReference {
    /// Samples kept: 30 minutes at one per `spacing`.
    static let capacity = 360
    static let spacing = 5.0
    /// Samples before the reference speaks for itself (one minute).
    static let minimumSamples = 12

    private var rmssd = SlidingQuantiles(capacity: capacity)
    private var heartRate = SlidingQuantiles(capacity: capacity)
    private var breathing = SlidingQuantiles(capacity: capacity)
    private var nextSample = -Double.infinity

    var isReady: Bool { rmssd.count >= Self.minimumSamples }

    /// ln of the 60th percentile of RMSSD and the 40th percentile of heart rate; nil when empty.
    /// Kept rather than computed when read: the detector reads it on every beat, and it changes
    /// only with a sample.
    private(set) var level: (lnRMSSD: Double, heartRate: Double)?

    /// Median resting breathing rate, breaths per minute. Kept, as `level` is.
    private(set) var breathingRate: Double?

    mutating func add(lnRMSSD ln: Double, heartRate rate: Double, breathingRate breaths: Double?, at time: Double) {
        guard time >= nextSample else { return }
        nextSample = time + Self.spacing
        rmssd.push(Double.exp(ln))
        heartRate.push(rate)
        if let breaths {
            breathing.push(breaths)
            breathingRate = breathing.quantile(0.5)
        }
        if let rmssd = rmssd.quantile(0.6), rmssd > 0, let heartRate = heartRate.quantile(0.4) {
            level = (Double.log(rmssd), heartRate)
        } else {
            level = nil
        }
    }

    /// Starts afresh (a new posture): the next sample is taken no earlier than `time`.
    mutating func restart(notBefore time: Double) {
        rmssd.removeAll()
        heartRate.removeAll()
        breathing.removeAll()
        level = nil
        breathingRate = nil
        nextSample = time
    }
}
