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

    private var history: [(time: Double, heartRate: Double)] = []
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
        if let firstKept = history.firstIndex(where: { $0.time >= time - 25 }), firstKept > 0 {
            history.removeFirst(firstKept)
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
        // The range of heart rate 15–25 s ago; the history is in time order. (A loop, not a
        // filtered copy: this runs on every beat.)
        guard let oldest = history.first, time - oldest.time >= 20 else { return nil }
        var (low, high) = (Double.infinity, -Double.infinity)
        for entry in history {
            if entry.time > time - 15 { break }
            (low, high) = (min(low, entry.heartRate), max(high, entry.heartRate))
        }
        guard low <= high else { return nil }
        if heartRate - low >= step {
            rise = (time, low, heartRate)
        } else if high - heartRate >= step {
            fall = (time, high)
        }
        return nil
    }

    /// Forgets the history (a gap in the recording, or a state where posture is not judged).
    mutating func reset() {
        history.removeAll(keepingCapacity: true)
        rise = nil
        fall = nil
    }

    private mutating func recognise(at time: Double) -> Double {
        lastChange = time
        rise = nil
        fall = nil
        history.removeAll(keepingCapacity: true)
        return time
    }
}
