import HRV
import Simulation
import Testing

/// The live α1: the whole-recording definition applied to the last two minutes.
struct RollingDFATests {
    static func beats(seed: UInt64, count: Int) -> [Beat] {
        var generator = SeededGenerator(seed: seed)
        var time: Int64 = 0
        return (0..<count).map { index in
            let milliseconds = 850 + Int(40 * sin(Double(index) / 4)) + Int.random(in: -25...25, using: &generator)
            let interval = RRInterval(milliseconds: milliseconds)
            time += interval.microticks
            return Beat(interval: interval, time: time)
        }
    }

    @Test func alpha1IsTheWindowsDFA() throws {
        let beats = Self.beats(seed: 1, count: 600)
        var rolling = RollingDFA()
        for (index, beat) in beats.enumerated() {
            rolling.add(beat)
            let alpha1 = rolling.alpha1()
            guard beat.seconds >= RollingDFA.window else {
                #expect(alpha1 == nil, "beat \(index)")
                continue
            }
            // The window: beats whose interval ended within the last two minutes.
            var whole = DetrendedFluctuation()
            for windowBeat in beats[...index] where windowBeat.seconds > beat.seconds - RollingDFA.window {
                whole.add(windowBeat.interval)
            }
            #expect(alpha1 == whole.alphas.short, "beat \(index)")
        }
    }

    @Test func aGapStartsAnotherWindow() {
        var beats = Self.beats(seed: 2, count: 300)
        var rolling = RollingDFA()
        for beat in beats { rolling.add(beat) }
        #expect(rolling.alpha1() != nil)
        beats[0].followsGap = true
        beats = beats.map { Beat(interval: $0.interval, time: $0.time + 1_000 * RRInterval.microticksPerSecond, followsGap: $0.followsGap) }
        for beat in beats.prefix(100) { rolling.add(beat) }
        #expect(rolling.alpha1() == nil, "100 beats of 0.85 s after a gap are not two minutes")
    }
}

#if canImport(Glibc)
import Glibc
#endif
