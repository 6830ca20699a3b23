import HRV
import Simulation
import Testing

/// Incremental rolling metrics equal a from-scratch recomputation, beat by beat.
@Suite struct RollingWindowTests {
    /// Random RR with occasional gaps in plausibility, wide jumps and long runs.
    static func randomIntervals(count: Int, seed: UInt64) -> [RRInterval] {
        var generator = SeededGenerator(seed: seed)
        var current: Int64 = 850
        return (0..<count).map { _ in
            current += Int64.random(in: -60...60, using: &generator)
            current = min(max(current, 300), 1600)
            let jitter = Int64.random(in: 0..<RRInterval.microticksPerMillisecond, using: &generator)
            return RRInterval(microticks: current * RRInterval.microticksPerMillisecond + jitter)
        }
    }

    /// What a window ending at `index` must hold: beats later than (time − length).
    static func recomputed(_ intervals: [RRInterval], times: [Int64], index: Int, length: Int64) -> IntervalStatistics {
        var start = index
        while start > 0, times[start - 1] > times[index] - length { start -= 1 }
        return IntervalStatistics(intervals[start...index])
    }

    /// Beats whose windows differ from a recomputation, the intervals analysed as given.
    static func mismatches(_ intervals: [RRInterval], rmssdWindow: Double, sdnnWindow: Double) -> Int {
        var configuration = HRVPipeline.Configuration()
        configuration.correction = nil
        configuration.rmssdWindow = rmssdWindow
        configuration.sdnnWindow = sdnnWindow
        let updates = process(intervals, configuration: configuration).updates
        var times: [Int64] = []
        var elapsed: Int64 = 0
        for interval in intervals {
            elapsed += interval.microticks
            times.append(elapsed)
        }
        guard updates.count == intervals.count else { return intervals.count }
        var mismatches = 0
        for (index, update) in updates.enumerated() {
            let short = Self.recomputed(intervals, times: times, index: index, length: Int64(rmssdWindow * 1_024_000_000))
            let long = Self.recomputed(intervals, times: times, index: index, length: Int64(sdnnWindow * 1_024_000_000))
            if update.rmssdWindow.metrics != short.metrics || update.sdnnWindow.metrics != long.metrics { mismatches += 1 }
        }
        return mismatches
    }

    @Test(arguments: [(UInt64(1), 60.0, 300.0), (2, 30, 120), (3, 10, 17.5)])
    func incrementalEqualsRecomputed(seed: UInt64, rmssdWindow: Double, sdnnWindow: Double) {
        #expect(Self.mismatches(Self.randomIntervals(count: 20_000, seed: seed), rmssdWindow: rmssdWindow, sdnnWindow: sdnnWindow) == 0)
    }

    /// The extremes a file analysed as given may hold side by side (one microtick, a whole hour,
    /// ordinary beats between), under the longest windows `analyze` allows: still exact.
    @Test func extremeIntervalsUnderHourLongWindowsEqualRecomputed() {
        var generator = SeededGenerator(seed: 7)
        let intervals = (0..<1_000).map { _ in
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: RRInterval(microticks: 1)
            case 1: RRInterval(microticks: 3_600 * RRInterval.microticksPerSecond)
            default: RRInterval(milliseconds: Int.random(in: 300...1_600, using: &generator))
            }
        }
        #expect(Self.mismatches(intervals, rmssdWindow: 60, sdnnWindow: 3_600) == 0)
    }

    /// With correction on, implausible intervals, breaks in the sequence and runs too fast for the
    /// ring: each window's sums and corrected beats equal a recount of the beats it spans, as the
    /// pipeline emitted them (usable intervals; a difference where both beats are usable, no
    /// break lies between and the earlier one is in the window; the ring's last 128 beats at most).
    @Test(arguments: [UInt64(4), 5, 6])
    func windowsEqualRecountWithCorrectionsGapsAndOverflow(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var configuration = HRVPipeline.Configuration()
        configuration.rmssdWindow = 10
        configuration.sdnnWindow = 20  // ring: 20 s × 5 beats/s + 16 → 128 beats
        var pipeline = HRVPipeline(configuration: configuration)
        var updates: [HRVUpdate] = []
        var current: Int64 = 800
        for index in 0..<20_000 {
            current = min(max(current + Int64.random(in: -40...40, using: &generator), 300), 1500)
            var milliseconds = current
            switch Int.random(in: 0..<200, using: &generator) {
            case 0: milliseconds = 50  // implausible
            case 1: milliseconds = 5_000
            case 2...5: milliseconds = current * 6 / 10  // premature: corrected
            case 6: pipeline.breakContinuity { updates.append($0) }
            default: break
            }
            if index % 3_000 >= 2_700 { milliseconds = 105 + Int64(index % 5) }  // beyond the ring
            let jitter = Int64.random(in: 0..<RRInterval.microticksPerMillisecond, using: &generator)
            pipeline.append(RRInterval(microticks: milliseconds * RRInterval.microticksPerMillisecond + jitter)) { updates.append($0) }
        }
        pipeline.finish { updates.append($0) }

        var ringBound = false
        func recount(ending newest: Int, length: Int64) -> (IntervalStatistics, Int) {
            let cutoff = updates[newest].beat.time - length
            var start = newest
            while start > max(0, newest - 127), updates[start - 1].beat.time > cutoff { start -= 1 }
            if start > 0, updates[start - 1].beat.time > cutoff { ringBound = true }
            var statistics = IntervalStatistics()
            var corrected = 0
            for index in start...newest {
                let beat = updates[index].beat
                guard beat.isUsable else { continue }
                statistics.add(beat.interval)
                if beat.isCorrected { corrected += 1 }
                if index > start, updates[index - 1].beat.isUsable, !beat.followsGap {
                    statistics.addDifference(updates[index - 1].beat.interval, beat.interval)
                }
            }
            return (statistics, corrected)
        }
        var mismatches = 0
        for (index, update) in updates.enumerated() {
            if update.sequence != index { mismatches += 1 }
            for (window, seconds) in [(update.rmssdWindow, 10.0), (update.sdnnWindow, 20.0)] {
                let (statistics, corrected) = recount(ending: index, length: Int64(seconds * 1_024_000_000))
                if window.statistics != statistics || window.correctedBeats != corrected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        // Every case the recount distinguishes happened.
        #expect(ringBound)
        #expect(updates.contains { !$0.beat.isUsable } && updates.contains { $0.beat.followsGap })
        #expect(updates.contains { $0.beat.isCorrected && $0.beat.isUsable })
    }

    /// The exact integer formulas agree with the textbook floating-point definitions.
    @Test func exactFormulasMatchDefinitions() {
        let intervals = Self.randomIntervals(count: 5_000, seed: 9)
        var configuration = HRVPipeline.Configuration()
        configuration.correction = nil
        let metrics = process(intervals, configuration: configuration).pipeline.recording.metrics!
        let ms = intervals.map(\.milliseconds)
        let mean = ms.reduce(0, +) / Double(ms.count)
        let sdnn = (ms.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(ms.count - 1)).squareRoot()
        let differences = zip(ms.dropFirst(), ms).map { $0 - $1 }
        let rmssd = (differences.map { $0 * $0 }.reduce(0, +) / Double(differences.count)).squareRoot()
        let pnn50 = 100 * Double(differences.filter { abs($0) > 50 }.count) / Double(ms.count)
        let meanDifference = differences.reduce(0, +) / Double(differences.count)
        let sdsd = (differences.map { ($0 - meanDifference) * ($0 - meanDifference) }.reduce(0, +) / Double(differences.count - 1)).squareRoot()
        let pairs = zip(ms.dropFirst(), ms).map { ($0 + $1) / 2.0.squareRoot() }
        let meanPair = pairs.reduce(0, +) / Double(pairs.count)
        let sd2 = (pairs.map { ($0 - meanPair) * ($0 - meanPair) }.reduce(0, +) / Double(pairs.count - 1)).squareRoot()
        #expect(relativeError(metrics.meanNN, mean) < 1e-12)
        #expect(relativeError(metrics.sdnn, sdnn) < 1e-9)
        #expect(relativeError(metrics.rmssd, rmssd) < 1e-9)
        #expect(relativeError(metrics.pnn50, pnn50) < 1e-12)
        #expect(relativeError(metrics.sdsd, sdsd) < 1e-9)
        #expect(relativeError(metrics.sd1, sdsd / 2.0.squareRoot()) < 1e-9)
        #expect(relativeError(metrics.sd2, sd2) < 1e-9)
    }

    /// A run of beats too fast for the ring shortens the window instead of growing memory, and the
    /// sums stay those of the beats still held.
    @Test func ringOverflowShortensWindow() {
        var configuration = HRVPipeline.Configuration()
        configuration.correction = nil
        configuration.rmssdWindow = 10
        configuration.sdnnWindow = 20  // ring: 20 s × 5 beats/s + 16 → 128 beats
        let intervals = (0..<1_000).map { RRInterval(milliseconds: 100 + $0 % 7) }
        let updates = process(intervals, configuration: configuration).updates
        let last = updates.last!
        let held = last.sdnnWindow.metrics!.beats
        #expect(held < 200)  // 20 s of 100 ms beats would be 200
        #expect(last.sdnnWindow.metrics == IntervalStatistics(intervals.suffix(held)).metrics)
    }

    @Test func windowReportsFillAndCorrectedShare() {
        var configuration = HRVPipeline.Configuration()
        configuration.rmssdWindow = 60
        let intervals = Array(repeating: RRInterval(milliseconds: 1000), count: 120)
        let updates = process(intervals, configuration: configuration).updates
        #expect(updates[58].rmssdWindow.isFilled == false)
        #expect(updates[60].rmssdWindow.isFilled == true)
        #expect(updates.allSatisfy { $0.rmssdWindow.correctedShare == 0 && !$0.rmssdWindow.isLowQuality })
        #expect(updates[100].rmssdWindow.metrics?.beats == 60)
        #expect(updates[100].rmssdWindow.metrics?.rmssd == 0)
    }
}
