import Simulation
import Testing

/// The simulated chest ECG against what a single-lead chest ECG shows: an R peak at each true
/// heartbeat standing ~1 mV above the rest of the complex, the breath in the baseline, and the
/// steps' artifacts while walking and running.
@Suite struct SimulatedECGTests {
    static let scenario = try! Scenario(parsing: "rest:1m,talking:1m,activity:1m:move=walking,activity:1m,breathing:1m,missed=2,extra=2")

    /// Each true beat's R peak is the highest sample within 200 ms of it, within a sample of its
    /// time, ~1.1 mV; at rest nothing else comes near.
    @Test func anRPeakAtEveryTrueBeat() {
        for seed in UInt64(1)...3 {
            let (beats, truth) = Simulator(scenario: Self.scenario, seed: seed).run()
            let ecg = SimulatedECG(scenario: Self.scenario, seed: seed, beats: beats)
            #expect(ecg.sampleCount == 300 * 130)
            let samples = ecg.samples(0..<ecg.sampleCount)
            let missed = truth.artifactBeatIndices[.missed]!.count, extra = truth.artifactBeatIndices[.extra]!.count
            #expect(ecg.rPeaks.count == beats.count + missed - extra, "seed \(seed)")
            for peak in ecg.rPeaks where peak > 0.3 && peak < 299.7 && !(120..<180).contains(peak) && !(180..<240).contains(peak) {
                let around = Int((peak - 0.2) * 130)...Int((peak + 0.2) * 130)
                let highest = around.max { samples[$0] < samples[$1] }!
                #expect(abs(SimulatedECG.time(ofSample: highest) - peak) <= 1.0 / 130, "seed \(seed) peak \(peak)")
                #expect((800...1400).contains(samples[highest] - samples[around].sorted()[around.count / 2]), "seed \(seed) peak \(peak)")
            }
        }
    }

    /// Any run of samples drawn alone is the same run as in the whole (the demo's frames of 73).
    @Test func samplesAreTheSameHoweverAskedFor() {
        let ecg = SimulatedECG(scenario: Self.scenario, seed: 7)
        let whole = ecg.samples(0..<1000)
        #expect(ecg.samples(73..<146) == Array(whole[73..<146]))
        #expect(ecg.samples(0..<1000) == whole)
        #expect(SimulatedECG(scenario: Self.scenario, seed: 8).samples(0..<1000) != whole)
    }

    /// Between beats (the 100 ms before each P wave's start), what is left is the breath's baseline
    /// and noise at rest, tens of µV; walking and running move the electrodes by far more.
    @Test func stepsMoveTheBaseline() {
        let ecg = SimulatedECG(scenario: Self.scenario, seed: 3)
        let samples = ecg.samples(0..<ecg.sampleCount)
        func spread(_ seconds: Range<Double>) -> Double {
            let quiet = ecg.rPeaks.filter { seconds.contains($0) }.flatMap { peak in
                Int((peak - 0.38) * 130)..<Int((peak - 0.28) * 130)
            }.map { Double(samples[$0]) }
            let mean = quiet.reduce(0, +) / Double(quiet.count)
            return (quiet.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(quiet.count)).squareRoot()
        }
        let rest = spread(5..<55), walking = spread(125..<175), running = spread(185..<235)
        #expect(rest > 10 && rest < 90, "\(rest)")
        #expect(walking > rest * 1.3, "\(walking) vs \(rest)")
        #expect(running > walking * 1.3, "\(running) vs \(walking)")
    }
}
