import Foundation
import HRV
import Testing

/// `hrvmon check`'s measurement: RMSSD, ln RMSSD and heart rate of the beats after the settling
/// seconds, recomputed here directly from the intervals.
@Suite struct MorningCheckTests {
    /// Beats of `milliseconds` intervals placed end to end, as the corrector places clean beats.
    static func beats(_ milliseconds: [Int]) -> [Beat] {
        var time: Int64 = 0
        return milliseconds.map { ms in
            let interval = RRInterval(milliseconds: ms)
            time += interval.microticks
            return Beat(interval: interval, time: time)
        }
    }

    static let intervals = (0..<260).map { 850 + Int(40 * sin(Double($0) * 0.9)) + ($0 % 7) * 3 }

    @Test func measuresOnlyTheBeatsAfterSettling() throws {
        var check = MorningCheck(settleSeconds: 30, measureSeconds: 120)
        let beats = Self.beats(Self.intervals)
        for beat in beats {
            #expect(!check.isComplete || beat.seconds > 150)
            check.add(beat)
        }
        #expect(check.isComplete)
        // Direct: the intervals that start at or after 30 s and end by 150 s.
        var end = 0.0
        var measured: [Double] = []
        for ms in Self.intervals {
            let start = end
            end += Double(ms) / 1000
            if start >= 30, end <= 150 { measured.append(Double(ms)) }
        }
        let differences = zip(measured.dropFirst(), measured).map { $0 - $1 }
        let rmssd = (differences.map { $0 * $0 }.reduce(0, +) / Double(differences.count)).squareRoot()
        let heartRate = 60_000 / (measured.reduce(0, +) / Double(measured.count))
        let result = try #require(check.result)
        #expect(result.beats == measured.count)
        #expect(abs(result.rmssd - rmssd) < 1e-9, "\(result.rmssd) vs \(rmssd)")
        #expect(abs(result.lnRMSSD - log(rmssd)) < 1e-9)
        #expect(abs(result.heartRate - heartRate) < 1e-9)
        #expect(result.correctedPercent == 0)
    }

    @Test func settlingAndTooFewBeatsGiveNoResult() {
        var check = MorningCheck(settleSeconds: 30, measureSeconds: 60)
        for beat in Self.beats(Array(repeating: 1000, count: 29)) { check.add(beat) }
        #expect(check.isSettling && !check.isComplete && check.result == nil)
    }

    /// No successive difference spans a gap; corrected beats are counted.
    @Test func gapsBreakDifferencesAndCorrectionsAreCounted() throws {
        var intervals = (0..<100).map { $0 % 2 == 0 ? 800 : 900 }
        intervals[60] = 1300  // after a gap: its difference to the beat before must not count
        var beats = Self.beats(intervals)
        beats[60].followsGap = true
        beats[70].artifact = .ectopic
        var check = MorningCheck(settleSeconds: 30, measureSeconds: 40)
        for beat in beats { check.add(beat) }
        let result = try #require(check.result)
        let inside = beats.indices.filter { beats[$0].seconds - beats[$0].interval.seconds >= 30 && beats[$0].seconds <= 70 }
        #expect(inside.contains(60) && inside.contains(70))
        #expect(result.beats == inside.count)
        // Every counted difference is ±100 ms except those touching beat 60: 61's is −400.
        let differences = inside.dropFirst().filter { $0 != 60 }.map { Double(intervals[$0] - intervals[$0 - 1]) }
        let rmssd = (differences.map { $0 * $0 }.reduce(0, +) / Double(differences.count)).squareRoot()
        #expect(abs(result.rmssd - rmssd) < 1e-9, "\(result.rmssd) vs \(rmssd)")
        #expect(abs(result.correctedPercent - 100.0 / Double(inside.count)) < 1e-9)
    }
}
