import Simulation
import Testing

@testable import HRV

/// PostureChange keeps its 25 s history in a ring and the range 15–25 s ago beside it (widened as
/// beats age, scanned afresh when a beat leaving held one of its ends); it recognises the same
/// changes, on the same beats, as the rules applied to a plain array that is filtered and scanned
/// on every beat.
@Suite struct PostureChangeTests {
    /// The rules of `PostureChange` over a brute-force history.
    struct Reference {
        let step: Double
        var history: [(time: Double, heartRate: Double)] = []
        var rise: (time: Double, before: Double, peak: Double)?
        var fall: (time: Double, before: Double)?
        var lastChange = -Double.infinity

        mutating func observe(heartRate: Double, at time: Double) -> Double? {
            history.append((time, heartRate))
            history.removeAll { $0.time < time - 25 }
            guard time - lastChange >= PostureChange.refractory else { return nil }
            if var candidate = rise {
                candidate.peak = max(candidate.peak, heartRate)
                rise = candidate
                if candidate.peak - heartRate >= PostureChange.overshootShare * (candidate.peak - candidate.before) {
                    return recognise(at: candidate.time)
                }
                if time - candidate.time > PostureChange.overshootWindow { rise = nil }
                return nil
            }
            if let candidate = fall {
                if candidate.before - heartRate < step {
                    fall = nil
                } else if time - candidate.time >= PostureChange.fallHold {
                    return recognise(at: candidate.time)
                }
                return nil
            }
            let aged = history.filter { $0.time <= time - 15 }.map(\.heartRate)
            guard let oldest = history.first, time - oldest.time >= 20, let low = aged.min(), let high = aged.max() else {
                return nil
            }
            if heartRate - low >= step {
                rise = (time, low, heartRate)
            } else if high - heartRate >= step {
                fall = (time, high)
            }
            return nil
        }

        mutating func reset() {
            history = []
            rise = nil
            fall = nil
        }

        mutating func recognise(at time: Double) -> Double {
            lastChange = time
            reset()
            return time
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func recognisesWhatTheBruteForceRulesDo(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var posture = PostureChange(step: 15)
        var reference = Reference(step: 15)
        var time = 0.0
        var heartRate = 70.0
        var changes = 0
        var mismatches = 0
        for beat in 0..<100_000 {
            // Quarter seconds: exact in binary, so entries fall exactly on the 15, 20 and 25 s marks.
            time += Double(Int.random(in: 1...5, using: &generator)) / 4
            // A random walk with now and then a step up or down, held or falling back.
            heartRate += Double(Int.random(in: -20...20, using: &generator)) / 10
            if Int.random(in: 0..<400, using: &generator) == 0 { heartRate += Double(Int.random(in: -30...30, using: &generator)) }
            heartRate = min(max(heartRate, 40), 190)
            if beat % 20_000 == 19_999 {
                posture.reset()
                reference.reset()
            }
            let found = posture.observe(heartRate: heartRate, at: time)
            if found != reference.observe(heartRate: heartRate, at: time) { mismatches += 1 }
            if found != nil { changes += 1 }
        }
        #expect(mismatches == 0)
        #expect(changes > 10, "the input should exercise rises and falls")
    }
}
