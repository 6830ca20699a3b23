import Glibc
import Simulation
import Testing

/// rest → stress → breathing → activity → recovery, 5 min each.
let allKinds = Scenario(segments: [
    Segment(kind: .rest, duration: 300),
    Segment(kind: .stress, duration: 300),
    Segment(kind: .breathing, duration: 300),
    Segment(kind: .activity, duration: 300),
    Segment(kind: .recovery, duration: 300),
])

/// Seconds skipped at the start of each segment: ≥ 5 time constants of the
/// slowest lag (recovery's 30 s), so the window is steady state.
let settle = 150.0

@Suite struct SimulatorDeterminismTests {
    @Test func sameSeedGivesIdenticalOutput() {
        let a = Simulator(scenario: .demo, seed: 1).run()
        let b = Simulator(scenario: .demo, seed: 1).run()
        #expect(a.beats == b.beats)
        #expect(a.truth.spans == b.truth.spans)
        #expect(a.truth.artifactBeatIndices == b.truth.artifactBeatIndices)
        let sim = Simulator(scenario: .demo, seed: 99)
        #expect(sim.run().beats == sim.run().beats)
    }

    @Test func differentSeedsDiffer() {
        let a = Simulator(scenario: allKinds, seed: 1).run().beats.map(\.rrTicks)
        let b = Simulator(scenario: allKinds, seed: 2).run().beats.map(\.rrTicks)
        #expect(a != b)
        // Not just a shifted copy: most intervals differ.
        let same = zip(a, b).filter { $0 == $1 }.count
        #expect(same < min(a.count, b.count) / 4)
    }

    @Test func artifactsDoNotChangeTheUnderlyingRhythm() {
        var dirty = allKinds
        dirty.ectopicPerMinute = 1
        dirty.missedBeats = 5
        dirty.extraBeats = 5
        let clean = Simulator(scenario: allKinds, seed: 5).run().beats
        let noisy = Simulator(scenario: dirty, seed: 5).run().beats
        let cleanTimes = Set(clean.map(\.time))
        let normals = noisy.filter { $0.label == .normal }
        #expect(normals.count > clean.count - 100)
        #expect(normals.allSatisfy { cleanTimes.contains($0.time) })
    }
}

@Suite struct SimulatorStreamTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func beatTimesAreCumulativeRRAndCoverTheScenario(seed: UInt64) {
        var scenario = allKinds
        scenario.ectopicPerMinute = 2
        scenario.missedBeats = 4
        scenario.extraBeats = 4
        let (beats, _) = Simulator(scenario: scenario, seed: seed).run()
        var t: Int64 = 0
        var cumulative = true
        for b in beats {
            t += Int64(b.rrTicks)
            if b.time != t { cumulative = false }
        }
        #expect(cumulative)
        #expect(beats.allSatisfy { $0.rrTicks >= 1 })
        let end = Int64(scenario.duration * 1024)
        #expect(beats.last!.time <= end)
        #expect(beats.last!.time > end - 2 * 1024)
        #expect(beats.first!.time < 2 * 1024)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func normalBeatsArePhysiological(seed: UInt64) {
        let (beats, _) = Simulator(scenario: allKinds, seed: seed).run()
        let normal = beats.filter { $0.label == .normal }.map(\.rrMilliseconds)
        #expect(normal.count == beats.count)
        #expect(normal.min()! >= 250)
        #expect(normal.max()! <= 2000)
        // Successive normal RRs stay within ~20 % of each other (a common
        // artifact criterion); only the large 0.1 Hz RSA of paced breathing
        // approaches it.
        let jumps = zip(normal, normal.dropFirst()).map { abs($1 - $0) / $0 }
        #expect(jumps.max()! < 0.22)
    }

    @Test func extremeTargetsStayInRange() {
        let scenario = Scenario(segments: [
            Segment(kind: .rest, duration: 120, heartRate: 30, rmssd: 250, breathingRate: 3),
            Segment(kind: .activity, duration: 120, heartRate: 220, rmssd: 1, breathingRate: 40),
            Segment(kind: .breathing, duration: 120, heartRate: 40, rmssd: 250, breathingRate: 40),
        ], ectopicPerMinute: 30, missedBeats: 10, extraBeats: 10)
        let (beats, _) = Simulator(scenario: scenario, seed: 4).run()
        #expect(beats.count > 300)
        #expect(beats.allSatisfy { $0.rrTicks >= 1 })
        #expect(beats.filter { $0.label == .normal }.allSatisfy { (200...3000).contains($0.rrMilliseconds) })
    }

    @Test func emptyScenarioGivesNoBeats() {
        let (beats, truth) = Simulator(scenario: Scenario(segments: []), seed: 1).run()
        #expect(beats.isEmpty)
        #expect(truth.spans.isEmpty)
    }

    @Test func dayLongScenarioIsFast() {
        let day = Scenario.presets["day"]!
        #expect(day.duration == 24 * 3600)
        // The thread's CPU time, not the wall's: beside other builds and tests the wall time
        // doubled (4.9 s seen with four CPU hogs), while the work done stays the same.
        func cpuSeconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        let before = cpuSeconds()
        let beats = Simulator(scenario: day, seed: 1).run().beats
        let seconds = cpuSeconds() - before
        #expect(beats.count > 90_000)
        // ~0.05 s in release; generous for unoptimised test builds.
        #expect(seconds < 3, "\(seconds) s of CPU")
    }
}

@Suite struct GroundTruthTests {
    @Test func spansTileTheWholeDuration() {
        let (beats, truth) = Simulator(scenario: allKinds, seed: 1).run()
        #expect(truth.spans.map(\.kind) == allKinds.segments.map(\.kind))
        #expect(truth.spans.first!.start == 0)
        #expect(truth.spans.last!.end == allKinds.duration)
        for (a, b) in zip(truth.spans, truth.spans.dropFirst()) { #expect(a.end == b.start) }
        for (span, segment) in zip(truth.spans, allKinds.segments) {
            #expect(span.end - span.start == segment.duration)
        }
        // Every beat's segment index agrees with the span containing its time.
        let consistent = beats.allSatisfy { b in
            let s = truth.spans[b.segmentIndex]
            return b.seconds >= s.start && (b.seconds < s.end || b.segmentIndex == truth.spans.count - 1)
        }
        #expect(consistent)
        #expect(truth.kind(at: 0) == .rest)
        #expect(truth.kind(at: 450) == .stress)
        #expect(truth.kind(at: 1500) == .recovery)
        #expect(truth.kind(at: 1500.5) == nil)
        #expect(truth.kind(at: -1) == nil)
    }

    @Test func artifactIndicesMatchLabels() {
        var scenario = allKinds
        scenario.ectopicPerMinute = 1
        scenario.missedBeats = 3
        scenario.extraBeats = 3
        let (beats, truth) = Simulator(scenario: scenario, seed: 8).run()
        #expect(Set(truth.artifactBeatIndices.keys) == [.ectopic, .compensatory, .missed, .extra])
        for (label, indices) in truth.artifactBeatIndices {
            let expected = beats.indices.filter { beats[$0].label == label }
            #expect(indices == expected, "label \(label)")
        }
        #expect(truth.artifactBeatIndices[.missed]!.count == 3)
        #expect(truth.artifactBeatIndices[.extra]!.count == 6)  // both halves of each split RR
        #expect(truth.artifactBeatIndices[.ectopic]!.count == truth.artifactBeatIndices[.compensatory]!.count)
    }
}

@Suite struct PhysiologyTests {
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func meanHeartRateReachesTargetAfterTransition(seed: UInt64) {
        let (beats, truth) = Simulator(scenario: allKinds, seed: seed).run()
        // (Recovery after exercise approaches its targets over tens of minutes: tested below.)
        for (i, segment) in allKinds.segments.enumerated() where segment.kind != .recovery {
            let hr = Analysis.meanHR(Analysis.window(beats, truth, segment: i, skip: settle))
            #expect(abs(hr - segment.heartRate) <= 5, "\(segment.kind): \(hr) bpm vs \(segment.heartRate)")
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func rmssdMatchesTargetPerKind(seed: UInt64) {
        let (beats, truth) = Simulator(scenario: allKinds, seed: seed).run()
        var measured: [SegmentKind: Double] = [:]
        for (i, segment) in allKinds.segments.enumerated() where segment.kind != .recovery {
            let r = Analysis.rmssd(Analysis.window(beats, truth, segment: i, skip: settle))
            measured[segment.kind] = r
            #expect(abs(r / segment.rmssd - 1) <= 0.30, "\(segment.kind): \(r) ms vs \(segment.rmssd)")
        }
        #expect(measured[.activity]! < measured[.stress]!)
        #expect(measured[.stress]! < measured[.rest]!)
        #expect(measured[.rest]! < measured[.breathing]!)
        // Moderate stress: RMSSD 30–40 % below rest, as the literature measures it, not halved.
        #expect((0.5...0.8).contains(measured[.stress]! / measured[.rest]!))
    }

    @Test func customTargetsAreHonoured() {
        let scenario = Scenario(segments: [
            Segment(kind: .rest, duration: 400, heartRate: 55, rmssd: 80, breathingRate: 10),
            Segment(kind: .stress, duration: 400, heartRate: 95, rmssd: 10),
            Segment(kind: .activity, duration: 400, heartRate: 160, rmssd: 4),
        ])
        let (beats, truth) = Simulator(scenario: scenario, seed: 12).run()
        for (i, segment) in scenario.segments.enumerated() {
            let w = Analysis.window(beats, truth, segment: i, skip: settle)
            let hr = Analysis.meanHR(w), r = Analysis.rmssd(w)
            #expect(abs(hr - segment.heartRate) <= 5, "\(segment.kind): \(hr) bpm")
            #expect(abs(r / segment.rmssd - 1) <= 0.30, "\(segment.kind): \(r) ms")
        }
    }

    @Test(arguments: [(6.0, UInt64(1)), (6.0, 2), (4.5, 3), (9.0, 4)])
    func pacedBreathingDominatesTheSpectrum(breathsPerMinute: Double, seed: UInt64) {
        let scenario = Scenario(segments: [
            Segment(kind: .rest, duration: 120),
            Segment(kind: .breathing, duration: 300, breathingRate: breathsPerMinute),
        ])
        let (beats, truth) = Simulator(scenario: scenario, seed: seed).run()
        let w = Analysis.window(beats, truth, segment: 1, skip: 60)
        let peak = Analysis.peakFrequency(w, band: 0.03...0.5)
        let expected = breathsPerMinute / 60
        #expect(abs(peak - expected) <= 0.01, "peak \(peak) Hz, breathing \(expected) Hz")
    }

    @Test(arguments: [(SegmentKind.rest, 15.0), (.stress, 18), (.rest, 12), (.activity, 28)])
    func spontaneousBreathingShowsAsRSAPeak(kind: SegmentKind, breathsPerMinute: Double) {
        let scenario = Scenario(segments: [Segment(kind: kind, duration: 300, breathingRate: breathsPerMinute)])
        let (beats, truth) = Simulator(scenario: scenario, seed: 21).run()
        let w = Analysis.window(beats, truth, segment: 0, skip: 0)
        let f = breathsPerMinute / 60
        // Spontaneous breathing wanders ~10 %, so look for the peak above the LF band.
        let peak = Analysis.peakFrequency(w, band: 0.15...0.6)
        #expect(abs(peak / f - 1) <= 0.15, "peak \(peak) Hz, breathing \(f) Hz")
    }

    @Test func transitionsAreLaggedNotStepped() {
        let scenario = Scenario.presets["stress-test"]!
        let (beats, truth) = Simulator(scenario: scenario, seed: 3).run()
        let rest = scenario.segments[0].heartRate, stress = scenario.segments[1].heartRate
        let delta = stress - rest
        func hr(_ from: Double, _ to: Double) -> Double {
            let w = beats.filter { $0.seconds >= from && $0.seconds < to }
            return Analysis.meanHR(w[...])
        }
        let boundary = truth.spans[1].start
        // First 10 s of stress: still much closer to rest than to stress.
        #expect(hr(boundary, boundary + 10) < rest + 0.5 * delta)
        // Mid-transition: clearly on the way.
        let mid = hr(boundary + 15, boundary + 35)
        #expect(mid > rest + 0.3 * delta && mid < rest + 0.95 * delta)
        // After ~5 time constants: there.
        #expect(hr(boundary + 120, boundary + 300) > rest + 0.8 * delta)
        // No step anywhere: 10-s mean HR never jumps by more than half the change.
        var previous = hr(0, 10)
        var t = 10.0
        var maxJump = 0.0
        while t + 10 <= scenario.duration {
            let current = hr(t, t + 10)
            maxJump = max(maxJump, abs(current - previous))
            previous = current
            t += 10
        }
        #expect(maxJump < 0.5 * delta)
        // HRV follows too: RMSSD of the first 20 s of stress is above the stress level.
        let early = beats.filter { $0.seconds >= boundary && $0.seconds < boundary + 20 }
        let late = Analysis.window(beats, truth, segment: 1, skip: settle)
        #expect(Analysis.rmssd(early[...]) > 1.3 * Analysis.rmssd(late))
    }

    @Test func recoveryDecaysTowardRestAfterActivity() {
        let scenario = Scenario.presets["workout"]!
        let (beats, truth) = Simulator(scenario: scenario, seed: 2).run()
        let start = truth.spans[2].start
        func hr(_ from: Double, _ to: Double) -> Double {
            Analysis.meanHR(beats.filter { $0.seconds >= start + from && $0.seconds < start + to }[...])
        }
        // Fast then slow (Imai et al. 1994): most of the excess goes in the first two minutes
        // (τ = 40 s), 40 % of it decays over a quarter of an hour.
        let steps = [hr(0, 10), hr(20, 30), hr(45, 55), hr(90, 100)]
        #expect(steps[0] > 110)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 > $1 + 3 }, "\(steps)")
        let target = scenario.segments[2].heartRate
        #expect((12...35).contains(hr(150, 300) - target), "\(hr(150, 300))")
    }

    @Test func recoveryKeepsRMSSDSuppressedForTensOfMinutes() {
        let scenario = try! Scenario(parsing: "rest:10m,activity:10m,recovery:60m")
        let (beats, truth) = Simulator(scenario: scenario, seed: 3).run()
        let start = truth.spans[2].start
        func window(_ from: Double, _ to: Double) -> ArraySlice<SimulatedBeat> {
            beats.filter { $0.seconds >= start + from && $0.seconds < start + to }[...]
        }
        let rest = Analysis.rmssd(Analysis.window(beats, truth, segment: 0, skip: settle))
        // Stanley et al. 2013: RMSSD still well below rest 10–30 min after, back within the hour.
        #expect(Analysis.rmssd(window(600, 900)) < 0.75 * rest)
        #expect(Analysis.rmssd(window(3000, 3600)) > 0.85 * rest)
        #expect(Analysis.meanHR(window(3000, 3600)) - Analysis.meanHR(Analysis.window(beats, truth, segment: 0, skip: settle)) < 4)
    }

    @Test func standingUpOvershootsThenSettles() {
        let scenario = try! Scenario(parsing: "rest:5m,standing:5m")
        let (beats, truth) = Simulator(scenario: scenario, seed: 4).run()
        let change = truth.spans[1].start
        func hr(_ from: Double, _ to: Double) -> Double {
            Analysis.meanHR(beats.filter { $0.seconds >= change + from && $0.seconds < change + to }[...])
        }
        let seated = hr(-60, 0)
        // The initial orthostatic response: a peak near 10 s, then a lower standing level.
        #expect(hr(5, 12) - seated > 15)
        #expect(hr(5, 12) > hr(120, 300) + 5)
        #expect((8...16).contains(hr(120, 300) - seated))
    }
}

@Suite struct ArtifactTests {
    @Test func ectopicBeatsAppearWhereRequestedWithCompensatoryPause() {
        var scenario = Scenario(segments: [Segment(kind: .rest, duration: 300)])
        scenario.ectopicTimes = [30, 100.5, 200]
        let (beats, truth) = Simulator(scenario: scenario, seed: 1).run()
        let ectopic = truth.artifactBeatIndices[.ectopic]!
        let compensatory = truth.artifactBeatIndices[.compensatory]!
        #expect(ectopic.count == 3)
        #expect(compensatory == ectopic.map { $0 + 1 })
        for (i, requested) in zip(ectopic, scenario.ectopicTimes) {
            let normal = Analysis.localNormalRR(beats, before: i)
            let premature = beats[i].rrMilliseconds
            let pause = beats[i + 1].rrMilliseconds
            // The pair spans about two normal RRs (full compensatory pause)…
            #expect(abs((premature + pause) / (2 * normal) - 1) < 0.12)
            // …and the premature one is shortened 25–40 % relative to half that
            // span, i.e. the sinus RR it displaced (± beat-to-beat variability).
            let prematurity = 1 - premature / ((premature + pause) / 2)
            #expect(prematurity > 0.2 && prematurity < 0.45, "prematurity \(prematurity)")
            #expect(premature < 0.85 * normal && pause > 1.1 * normal)
            // The premature beat falls within about one beat of the requested time.
            #expect(abs(beats[i].seconds - requested) < 1.5)
            #expect(beats[i - 1].label == .normal && beats[i + 2].label == .normal)
        }
    }

    @Test func demoHasThreeEctopicsInDistinctSegments() {
        let (beats, truth) = Simulator(scenario: .demo, seed: 1).run()
        let ectopic = truth.artifactBeatIndices[.ectopic]!
        #expect(ectopic.count == 3)
        #expect(ectopic.map { beats[$0].segmentIndex } == [0, 1, 3])
        #expect(truth.artifactBeatIndices[.missed]!.isEmpty)
        #expect(truth.artifactBeatIndices[.extra]!.isEmpty)
    }

    @Test func ectopicRateIsPoissonLike() {
        let scenario = Scenario(segments: [Segment(kind: .rest, duration: 3600)], ectopicPerMinute: 2)
        var counts: [Int] = []
        for seed: UInt64 in 1...3 {
            let (beats, truth) = Simulator(scenario: scenario, seed: seed).run()
            let ectopic = truth.artifactBeatIndices[.ectopic]!
            counts.append(ectopic.count)
            // Each one is premature and followed by its compensatory pause.
            #expect(truth.artifactBeatIndices[.compensatory]! == ectopic.map { $0 + 1 })
            #expect(ectopic.allSatisfy { i in
                let e = beats[i].rrMilliseconds, c = beats[i + 1].rrMilliseconds
                let prematurity = 1 - e / ((e + c) / 2)
                return prematurity > 0.2 && prematurity < 0.45
                    && e < 0.85 * Analysis.localNormalRR(beats, before: i)
            })
        }
        // 120 expected per hour; Poisson SD ≈ 11.
        #expect(counts.allSatisfy { (85...155).contains($0) }, "\(counts)")
        #expect(Set(counts).count > 1)
    }

    @Test func missedAndExtraBeatsMergeAndSplitIntervals() {
        let scenario = Scenario(
            segments: [Segment(kind: .rest, duration: 300), Segment(kind: .stress, duration: 300)],
            missedBeats: 4, extraBeats: 4
        )
        let (beats, truth) = Simulator(scenario: scenario, seed: 6).run()
        let missed = truth.artifactBeatIndices[.missed]!
        let extra = truth.artifactBeatIndices[.extra]!
        #expect(missed.count == 4)
        #expect(extra.count == 8)
        for i in missed {
            let ratio = beats[i].rrMilliseconds / Analysis.localNormalRR(beats, before: i)
            #expect(ratio > 1.8 && ratio < 2.2, "missed ratio \(ratio)")
        }
        for pair in stride(from: 0, to: extra.count, by: 2) {
            let i = extra[pair]
            #expect(extra[pair + 1] == i + 1)
            let a = beats[i].rrMilliseconds, b = beats[i + 1].rrMilliseconds
            let normal = Analysis.localNormalRR(beats, before: i)
            #expect(abs((a + b) / normal - 1) < 0.1)
            #expect(min(a, b) >= 0.25 * normal)
        }
    }

    @Test func artifactPlacementDependsOnSeed() {
        let scenario = Scenario(segments: [Segment(kind: .rest, duration: 600)], ectopicPerMinute: 1, missedBeats: 3)
        let a = Simulator(scenario: scenario, seed: 1).run().truth.artifactBeatIndices
        let b = Simulator(scenario: scenario, seed: 2).run().truth.artifactBeatIndices
        #expect(a != b)
    }
}
