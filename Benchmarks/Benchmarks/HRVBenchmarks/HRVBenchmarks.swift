// Steady-state cost of the HRV engine: time, CPU and heap allocations per 100,000 beats.
//
// One iteration = 100,000 beats (about 22 hours at 75 bpm), so the wall-clock figures read as
// "per 100k beats"; divide by 100,000 for a beat. The pipeline is built and fed 10,000 warm-up
// beats outside the measured region in every iteration, so the ring, the rolling windows and the
// corrector's quantile windows are full and the measurement sees only steady state, where the
// target is zero mallocs.
//
// Reading the malloc rows: the harness's own start/stop costs 16 mallocs (see "Harness baseline"),
// so 16 means zero in the code under test; `run --allocation-stacks` subtracts it and shows 0.
// peakMemoryResident is left out on purpose: its sampler thread reads /proc and mallocs while the
// region is measured, which adds ~50–120 mallocs of noise; scripts/bench-analyze.sh reports the
// CLI's real peak RSS instead.
//
//     cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
//     swift package benchmark --filter "HRVPipeline.*"            # one group
//     swift package benchmark run --allocation-stacks             # where any malloc comes from
import Benchmark
import HRV
import Simulation

/// Beats fed before measuring: fills the 300 s SDNN window (~375 beats at 75 bpm), the beat ring
/// (2,048) and the corrector's 91-beat windows many times over.
let warmupBeats = 10_000
/// Beats fed in the measured region of one iteration.
let measuredBeats = 100_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .memoryLeakedBytes, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 30
    )

    // Same input for every benchmark: comparable numbers.
    let recording = SimulatedRR.generate(count: warmupBeats + measuredBeats, seed: 1)
    let warmup = recording[..<warmupBeats]
    let measured = recording[warmupBeats...]

    func pipelineBenchmark(_ name: String, correction: ArtifactCorrector.Configuration?) {
        Benchmark(name) { benchmark in
            var configuration = HRVPipeline.Configuration()
            configuration.correction = correction
            var pipeline = HRVPipeline(configuration: configuration)
            for interval in warmup { pipeline.append(interval) { blackHole($0) } }

            benchmark.startMeasurement()
            for interval in measured { pipeline.append(interval) { blackHole($0) } }
            benchmark.stopMeasurement()

            pipeline.finish { blackHole($0) }
            blackHole(pipeline.recording)
        }
    }

    // a. Default configuration: causal Kubios artifact correction on.
    pipelineBenchmark("HRVPipeline steady state", correction: .init())
    // b. Intervals analysed as given.
    pipelineBenchmark("HRVPipeline steady state, no correction", correction: nil)

    // The corrector alone (public API), to split the pipeline's cost.
    Benchmark("ArtifactCorrector steady state") { benchmark in
        var corrector = ArtifactCorrector()
        for interval in warmup { corrector.push(interval) { blackHole($0) } }

        benchmark.startMeasurement()
        for interval in measured { corrector.push(interval) { blackHole($0) } }
        benchmark.stopMeasurement()

        blackHole(corrector.detections)
    }

    // What the harness itself costs: start/stop of an empty measured region. Its malloc count
    // (the interposer's own bookkeeping) is the floor to subtract from every row above.
    Benchmark("Harness baseline (empty measured region)") { benchmark in
        benchmark.startMeasurement()
        benchmark.stopMeasurement()
    }
}

/// RR input from the package's own simulator: its `day` scenario (~103,000 beats; 24 × rest,
/// stress, rest, activity, recovery, with ectopic, missed and extra beats), the same data
/// `scripts/bench-analyze.sh` feeds to `hrvmon analyze`. Days with seeds 1, 2, … are joined until
/// `count` beats are there.
enum SimulatedRR {
    static func generate(count: Int, seed: UInt64) -> [RRInterval] {
        let day: Scenario
        do { day = try Scenario(presetOrSpec: "day") } catch { fatalError("simulator: \(error)") }
        var intervals: [RRInterval] = []
        intervals.reserveCapacity(count)
        var seed = seed
        while intervals.count < count {
            let beats = Simulator(scenario: day, seed: seed).run().beats
            intervals += beats.prefix(count - intervals.count).map { RRInterval(ticks: $0.rrTicks) }
            seed += 1
        }
        return intervals
    }
}
