// Steady-state cost of the HRV engine: time, CPU and heap allocations per 100,000 beats.
//
// One iteration = 100,000 beats (about 22 hours at 75 bpm), so the wall-clock figures read as
// "per 100k beats"; divide by 100,000 for a beat. The pipeline is built and fed 10,000 warm-up
// beats outside the measured region in every iteration, so the ring, the rolling windows and the
// corrector's quantile windows are full and the measurement sees only steady state, where the
// target is zero mallocs.
//
//     cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
//     swift package benchmark --filter "HRVPipeline.*"            # one group
//     swift package benchmark run --allocation-stacks             # where any malloc comes from
import Benchmark
import HRV

/// Beats fed before measuring: fills the 300 s SDNN window (~375 beats at 75 bpm), the beat ring
/// (2,048) and the corrector's 91-beat windows many times over.
let warmupBeats = 10_000
/// Beats fed in the measured region of one iteration.
let measuredBeats = 100_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .memoryLeaked, .peakMemoryResident, .throughput],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .one,
        maxDuration: .seconds(5),
        maxIterations: 30
    )

    // Same seed for every benchmark: identical input, comparable numbers.
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

    // c. IntervalStatistics as a rolling window uses it (public; RollingWindow itself is internal):
    // per beat add the interval and its difference, drop the one leaving a 375-beat (~300 s)
    // window, and read the metrics.
    Benchmark("IntervalStatistics rolling 375 beats") { benchmark in
        let window = 375
        let beats = Array(recording)
        var statistics = IntervalStatistics()
        var index = 0
        func step() {
            if index > 0 { statistics.addDifference(beats[index - 1], beats[index]) }
            statistics.add(beats[index])
            if index >= window {
                let leaving = index - window
                statistics.remove(beats[leaving])
                statistics.removeDifference(beats[leaving], beats[leaving + 1])
            }
            blackHole(statistics.metrics)
            index += 1
        }
        while index < warmupBeats { step() }

        benchmark.startMeasurement()
        while index < beats.count { step() }
        benchmark.stopMeasurement()
    }
}

/// A small seeded RR generator (the package's Simulation module is internal): 60–90 bpm drifting
/// over ~20 minutes, respiratory sinus arrhythmia, beat-to-beat noise, and about one ectopic beat
/// in 400 (premature 30 % short, then the compensatory pause that keeps the sinus rhythm).
enum SimulatedRR {
    /// SplitMix64: tiny, fast, deterministic across platforms.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        /// Uniform in [0, 1).
        mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
        /// Standard normal (Box–Muller).
        mutating func gaussian() -> Double {
            let u = max(unit(), .leastNonzeroMagnitude)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * unit())
        }
    }

    static func generate(count: Int, seed: UInt64) -> [RRInterval] {
        var random = Generator(state: seed)
        var intervals: [RRInterval] = []
        intervals.reserveCapacity(count)
        var time = 0.0  // seconds
        var compensation: Double?
        while intervals.count < count {
            // 75 ± 15 bpm over a 20-minute cycle.
            let bpm = 75 + 15 * sin(2 * .pi * time / 1_200)
            let base = 60_000 / bpm
            let rsa = 25 * sin(2 * .pi * 0.25 * time)  // breathing at 15/min
            var ms = base + rsa + 12 * random.gaussian()
            if let pause = compensation {
                ms = pause
                compensation = nil
            } else if random.unit() < 0.0025 {
                // Premature beat 30 % early; the next interval makes up the difference.
                compensation = ms * 1.3
                ms *= 0.7
            }
            let milliseconds = Int(ms.rounded())
            intervals.append(RRInterval(milliseconds: milliseconds))
            time += Double(milliseconds) / 1_000
        }
        return intervals
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
