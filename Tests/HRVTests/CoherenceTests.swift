import Foundation
import HRV
import Simulation
import TestSupport
import Testing

/// The coherence score: every reading against an independent scipy implementation of the
/// definition (make_coherence_reference.py) on real and simulated recordings, the meter's schedule
/// and gaps, and what it says about breathing: high for paced breathing, low for rest, talking and
/// stress, on the simulator and on real resting recordings.
@Suite struct CoherenceTests {
    struct Reference: Decodable {
        struct Reading: Decodable {
            var beat: Int
            var time: Double
            var score: Double
            var peak_hz: Double
        }
        var readings: [Reading]
        var mean_score: Double
    }

    static let recordings = [
        "mitbih_nsr_5min", "mitbih_nsr_30min", "real/biosignalsnotebooks_ecg_5_min_rest",
        "real/biosignalsnotebooks_ecg_2018_7_5_unlabelled", "simulated_coherence",
    ]

    /// Beats of whole strap ticks, each at the running sum of the intervals.
    static func beats(ticks: [Int]) -> [Beat] {
        var time: Int64 = 0
        return ticks.map { ticks in
            let interval = RRInterval(ticks: UInt16(ticks))
            time += interval.microticks
            return Beat(interval: interval, time: time)
        }
    }

    /// The meter's readings over `beats`: the beat index at which each was taken, and the reading.
    static func readings(_ beats: [Beat]) -> [(beat: Int, coherence: Coherence)] {
        var meter = CoherenceMeter()
        var readings: [(Int, Coherence)] = []
        for (index, beat) in beats.enumerated() {
            let before = meter.readings
            meter.add(beat)
            if meter.readings > before, let latest = meter.latest { readings.append((index, latest)) }
        }
        return readings
    }

    @Test(arguments: recordings)
    func everyReadingMatchesTheIndependentImplementation(_ name: String) throws {
        let reference = try JSONDecoder().decode(
            Reference.self, from: Data(contentsOf: Fixture.url(name + ".reference.coherence.json")))
        let readings = Self.readings(Self.beats(ticks: Fixture.ticks(name + ".txt")))
        #expect(readings.count == reference.readings.count)
        #expect(reference.readings.count > 40, "the fixture is long enough to mean something")
        for (reading, expected) in zip(readings, reference.readings) {
            #expect(reading.beat == expected.beat)
            #expect(abs(reading.coherence.score - expected.score) < 1e-9, "beat \(expected.beat)")
            #expect(reading.coherence.peakFrequency == expected.peak_hz, "beat \(expected.beat)")
        }
    }

    @Test func aPureRhythmIsCoherentAndNoiseIsNot() throws {
        // 0.1 Hz RSA of ±50 ms around 900 ms: nearly all the power in one peak.
        var sine: [Int] = []
        var time = 0.0
        while time < 64 {
            let milliseconds = 900 + 50 * sin(2 * Double.pi * 0.1 * time)
            sine.append(Int((milliseconds * 1.024).rounded()))
            time += milliseconds / 1000
        }
        let rhythm = try #require(Self.readings(Self.beats(ticks: sine)).last?.coherence)
        #expect(rhythm.score > 0.8)
        #expect(abs(rhythm.peakFrequency - 0.1) <= Coherence.resolution)
        #expect(abs(rhythm.ratio - rhythm.score / (1 - rhythm.score)) < 1e-12)
        // White beat-to-beat noise: the power spreads over the whole band.
        var generator = SeededGenerator(seed: 3)
        let noise = (0..<90).map { _ in Int.random(in: 880...960, using: &generator) }
        let spread = try #require(Self.readings(Self.beats(ticks: noise)).last?.coherence)
        #expect(spread.score < 0.3)
    }

    @Test func readingsComeEveryFiveSecondsAfterAFullWindow() {
        let beats = Self.beats(ticks: (0..<200).map { 1000 + 30 * ($0 % 5) })
        let readings = Self.readings(beats)
        let times = readings.map { beats[$0.beat].seconds }
        #expect(times.first.map { $0 >= CoherenceMeter.window } == true)
        #expect(beats[readings[0].beat - 1].seconds < CoherenceMeter.window, "the first reading comes at the first beat past 64 s")
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= CoherenceMeter.interval)
            #expect(later - earlier < CoherenceMeter.interval + 1.2, "the next beat past 5 s takes it")
        }
    }

    @Test(arguments: [false, true])
    func aGapEmptiesTheWindow(unusableBeatCarriesTheGap: Bool) {
        var beats = Self.beats(ticks: (0..<200).map { 900 + 60 * ($0 % 7) })
        var meter = CoherenceMeter()
        for beat in beats.prefix(100) { meter.add(beat) }
        #expect(meter.latest != nil)
        let readings = meter.readings
        beats[100].followsGap = true
        if unusableBeatCarriesTheGap { beats[100].artifact = .implausible }
        let gapTime = beats[100].seconds
        for beat in beats[100...] {
            meter.add(beat)
            if beat.seconds - gapTime < CoherenceMeter.window - 1.5 {
                #expect(meter.latest == nil, "no reading within 64 s of a gap, at \(beat.seconds)")
                #expect(meter.readings == readings)
            }
        }
        #expect(meter.readings > readings, "readings resume once the window has refilled")
    }

    /// The exercise's mean coherence over its own span, as ExerciseEffect measures it.
    static func exerciseCoherence(_ spec: String, seed: UInt64, from start: Double, to end: Double) throws -> Double? {
        let (simulated, _) = Simulator(scenario: try Scenario(parsing: spec), seed: seed).run()
        var effect = ExerciseEffect(start: start, end: end)
        var pipeline = HRVPipeline()
        for beat in simulated { pipeline.append(RRInterval(ticks: beat.rrTicks)) { effect.observe($0.beat) } }
        pipeline.finish { effect.observe($0.beat) }
        return effect.coherence.meanScore
    }

    /// Paced breathing at resonance rates scores high on every seed; rest, talking and stress,
    /// measured as if an exercise had been started, do not reach the lowest paced score.
    @Test func pacedBreathingScoresAboveRestTalkingAndStress() throws {
        var paced: [Double] = []
        var other: [String: [Double]] = [:]
        for seed in UInt64(1)...6 {
            for rate in [4.5, 5.5, 6.5] {
                paced.append(try #require(try Self.exerciseCoherence(
                    "rest:2m,breathing:5m:br=\(rate)", seed: seed, from: 150, to: 420)))
            }
            for kind in ["rest", "talking", "stress"] {
                other[kind, default: []].append(try #require(try Self.exerciseCoherence(
                    "rest:2m,\(kind):5m", seed: seed, from: 150, to: 420)))
            }
        }
        #expect(paced.min()! > 0.7, "\(paced)")
        for (kind, scores) in other {
            #expect(scores.max()! < 0.55, "\(kind): \(scores)")
        }
    }

    /// Real resting recordings (spontaneous breathing, nobody pacing it) average well below paced
    /// breathing: the score does not call ordinary rest coherent.
    @Test(arguments: recordings.filter { $0 != "simulated_coherence" })
    func realRestIsNotCoherent(_ name: String) {
        let readings = Self.readings(Self.beats(ticks: Fixture.ticks(name + ".txt")))
        let mean = readings.map(\.coherence.score).reduce(0, +) / Double(readings.count)
        #expect(mean < 0.45, "\(name): mean \(mean)")
    }
}
