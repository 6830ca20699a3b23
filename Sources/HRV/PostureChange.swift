/// Tells a change of posture from the heart rate of the last few beats. Standing up raises heart
/// rate within seconds and overshoots: a peak about 10 s after the change, then a fall to a
/// level still above the seated one (the initial orthostatic response; Finucane et al. 2019,
/// Wieling et al. 2007). Sitting or lying down lowers it as abruptly. A mental stress response
/// builds over tens of seconds by a few bpm, and exercise rises without the overshoot, so an
/// abrupt step of `step` bpm — followed, for a rise, by the overshoot's fall, and held, for a
/// fall — is posture.
struct PostureChange {
    /// Heart rate step, bpm, between the last beats and 15–25 s earlier.
    var step: Double
    /// A rise is posture once heart rate has fallen back this share of the rise from its peak…
    static let overshootShare = 0.3
    /// …within this many seconds of the step.
    static let overshootWindow = 40.0
    /// No second change is looked for this soon after one.
    static let refractory = 60.0

    /// Heart rates of the last 25 s, oldest first; the first `agedCount` are 15 s old or more.
    private var history = RingDeque<(time: Double, heartRate: Double)>()
    private var agedCount = 0
    /// The range of the aged heart rates, nil when it must be scanned afresh: a beat that ages
    /// widens it, and it is forgotten only when a beat leaving the history held one of its
    /// ends (a sixth of the beats or so), where scanning the dozen aged beats on every beat cost
    /// more than the rest of the detector's posture rule. Sliding extrema cost more still.
    private var agedRange: (low: Double, high: Double)?
    private var rise: (time: Double, before: Double, peak: Double)?
    /// A fall counts once heart rate has stayed down for `fallHold` seconds: everyday heart rate
    /// dips for a few breaths (ambulatory recordings are full of them), a posture holds.
    private var fall: (time: Double, before: Double)?
    static let fallHold = 20.0
    private var lastChange = -Double.infinity

    init(step: Double) { self.step = step }

    /// The time of the change, on the beat where one is recognised.
    mutating func observe(heartRate: Double, at time: Double) -> Double? {
        history.append((time, heartRate))
        while agedCount < history.count, history[agedCount].time <= time - 15 {
            if let range = agedRange {
                let aged = history[agedCount].heartRate
                agedRange = (min(range.low, aged), max(range.high, aged))
            }
            agedCount += 1
        }
        while let oldest = history.first, oldest.time < time - 25 {
            history.removeFirst()
            agedCount -= 1
            if let range = agedRange, oldest.heartRate == range.low || oldest.heartRate == range.high { agedRange = nil }
        }
        guard time - lastChange >= Self.refractory else { return nil }
        if var candidate = rise {
            candidate.peak = max(candidate.peak, heartRate)
            rise = candidate
            let height = candidate.peak - candidate.before
            if candidate.peak - heartRate >= Self.overshootShare * height {
                return recognise(at: candidate.time)
            }
            if time - candidate.time > Self.overshootWindow { rise = nil }
            return nil
        }
        if let candidate = fall {
            if candidate.before - heartRate < step {
                fall = nil
            } else if time - candidate.time >= Self.fallHold {
                return recognise(at: candidate.time)
            }
            return nil
        }
        // The range of heart rate 15–25 s ago.
        guard let oldest = history.first, time - oldest.time >= 20, agedCount > 0 else { return nil }
        let (low, high) = agedRange ?? scanAgedRange(from: oldest.heartRate)
        if heartRate - low >= step {
            rise = (time, low, heartRate)
        } else if high - heartRate >= step {
            fall = (time, high)
        }
        return nil
    }

    private mutating func scanAgedRange(from oldest: Double) -> (low: Double, high: Double) {
        var (low, high) = (oldest, oldest)
        history.forEach(inFirst: agedCount) { aged in
            low = min(low, aged.heartRate)
            high = max(high, aged.heartRate)
        }
        agedRange = (low, high)
        return (low, high)
    }

    /// Forgets the history (a gap in the recording, or a state where posture is not judged).
    mutating func reset() {
        history.removeAll()
        agedCount = 0
        agedRange = nil
        rise = nil
        fall = nil
    }

    private mutating func recognise(at time: Double) -> Double {
        lastChange = time
        reset()
        return time
    }
}
