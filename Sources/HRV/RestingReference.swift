/// The rolling reference stress is judged against: where ln RMSSD and heart rate have sat in the
/// last half hour of judged time. A fixed baseline fails a long recording — the night's RMSSD
/// makes a whole day look like stress — so the reference follows the day slowly: the 60th
/// percentile of ln RMSSD and the 40th of heart rate, which an 8-minute episode barely moves
/// and a change lasting most of the half hour (a new normal) takes over. Samples come every
/// 5 s; only rest-like time is sampled (never exercise, its recovery or paced breathing). The
/// breathing rate at rest is kept too (its median), for the stress rule's "breathing faster".
struct RestingReference {
    /// Samples kept: 30 minutes at one per `spacing`.
    static let capacity = 360
    static let spacing = 5.0
    /// Samples before the reference speaks for itself (one minute).
    static let minimumSamples = 12

    private var lnRMSSD: [Double] = []
    private var heartRate: [Double] = []
    private var breathing: [Double] = []
    private var oldest = 0
    private var oldestBreathing = 0
    private var nextSample = -Double.infinity
    /// Cached percentiles, recomputed when a sample arrives.
    private(set) var level: (lnRMSSD: Double, heartRate: Double)?
    private(set) var breathingRate: Double?

    var count: Int { lnRMSSD.count }
    var isReady: Bool { count >= Self.minimumSamples }

    mutating func add(lnRMSSD ln: Double, heartRate rate: Double, breathingRate breaths: Double?, at time: Double) {
        guard time >= nextSample else { return }
        nextSample = time + Self.spacing
        if lnRMSSD.count < Self.capacity {
            lnRMSSD.append(ln)
            heartRate.append(rate)
        } else {
            lnRMSSD[oldest] = ln
            heartRate[oldest] = rate
            oldest = (oldest + 1) % Self.capacity
        }
        level = (Self.percentile(lnRMSSD, 0.6), Self.percentile(heartRate, 0.4))
        guard let breaths else { return }
        if breathing.count < Self.capacity {
            breathing.append(breaths)
        } else {
            breathing[oldestBreathing] = breaths
            oldestBreathing = (oldestBreathing + 1) % Self.capacity
        }
        breathingRate = Self.percentile(breathing, 0.5)
    }

    /// Starts afresh (a new posture): the next sample is taken no earlier than `time`.
    mutating func restart(notBefore time: Double) {
        lnRMSSD.removeAll(keepingCapacity: true)
        heartRate.removeAll(keepingCapacity: true)
        breathing.removeAll(keepingCapacity: true)
        oldest = 0
        oldestBreathing = 0
        nextSample = time
        level = nil
        breathingRate = nil
    }

    /// Linear interpolation between closest ranks (numpy's default).
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let below = Int(position.rounded(.down))
        let above = min(below + 1, sorted.count - 1)
        return sorted[below] + (sorted[above] - sorted[below]) * (position - Double(below))
    }
}
