import HRV
import Simulation
import TestSupport
import Testing

/// The detector on realistic physiology (the simulator's respiration-driven RSA, 1/f wander,
/// Mayer waves, lagged transitions and ~0.5 % ectopic beats), each scenario in several random
/// draws: false stress where there is none, and onset/release of a real moderate stress episode.
/// The validation table in docs/science.md comes from `printTable` below.
@Suite struct StressValidationTests {
    /// One detector run over a simulated recording, with the beat times at which each state held.
    struct Judged {
        var truth: GroundTruth
        var realised: [RealisedSegment]
        var states: [(time: Double, state: StressState, level: Double?)] = []
        var episodes: [StressEpisode] = []

        var stress: [StressEpisode] { episodes.filter { $0.kind == .stress } }

        /// Seconds of stress episodes inside `range`.
        func stressSeconds(in range: ClosedRange<Double>) -> Double {
            stress.reduce(0) { $0 + max(0, min($1.end, range.upperBound) - max($1.start, range.lowerBound)) }
        }

        /// Seconds of stress outside the true stress spans (each widened by `margin` at its end
        /// for the physiology's lag and the release).
        func falseStressSeconds(margin: Double = 120) -> Double {
            let total = stressSeconds(in: 0...(truth.spans.last?.end ?? 0))
            let justified = truth.spans.filter { $0.kind == .stress }
                .reduce(0) { $0 + stressSeconds(in: $1.start...($1.end + margin)) }
            return total - justified
        }

        /// First beat time in `range` with state `state`.
        func firstTime(of state: StressState, in range: ClosedRange<Double>) -> Double? {
            states.first { range.contains($0.time) && $0.state == state }?.time
        }

        func share(of state: StressState, in range: ClosedRange<Double>) -> Double {
            let inside = states.filter { range.contains($0.time) }
            return Double(inside.filter { $0.state == state }.count) / Double(max(inside.count, 1))
        }
    }

    /// With `motion`, the simulated strap's accelerometer too: each second reaches the detector
    /// once the beats have reached its end, as the live session hands on both. `sitting`: whether
    /// there was input at the desk at a beat's time (``StressDetector/isSitting``); nil: never
    /// told, as without a desktop.
    static func judge(_ spec: String, seed: UInt64, motion: Bool = false, sitting: ((Double) -> Bool)? = nil) throws -> Judged {
        let scenario = try Scenario(parsing: spec)
        let (beats, truth) = Simulator(scenario: scenario, seed: seed).run()
        var judged = Judged(truth: truth, realised: RealisedSegment.measure(beats, truth: truth))
        var pipeline = HRVPipeline()
        var detector = StressDetector()
        let observe = { (update: HRVUpdate) in
            if let sitting { detector.isSitting = sitting(update.beat.seconds) }
            let assessment = detector.update(VerdictInput(update)) { judged.episodes.append($0) }
            judged.states.append((update.beat.seconds, assessment.state, assessment.level))
        }
        let seconds = motion ? try SimulatedMotion.shared(spec, seed: seed) : []
        var next = 0
        for beat in beats {
            while next < seconds.count, Double(next + 1) <= beat.seconds {
                detector.observe(seconds[next], at: Double(next + 1))
                next += 1
            }
            pipeline.append(RRInterval(ticks: beat.rrTicks), emit: observe)
        }
        pipeline.finish(emit: observe)
        detector.finish { judged.episodes.append($0) }
        return judged
    }

    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6]
    /// About 0.5 % of beats ectopic at 60–70 bpm.
    static let ectopic = "ectopic=0.33/min"

    /// The scenarios without stress, and the false stress each may show: 30 s per hour.
    static let lookAlikes: [(name: String, spec: String)] = [
        ("calm hour", "rest:60m"),
        ("paced breathing 6/min", "rest:10m,breathing:10m,rest:10m"),
        ("post-exercise recovery", "rest:10m,activity:10m,recovery:40m"),
        ("standing up and sitting down", "rest:10m,standing:10m,rest:10m"),
    ]

    @Test(arguments: lookAlikes)
    func noFalseStress(name: String, spec: String) throws {
        for seed in Self.seeds {
            let judged = try Self.judge(spec + "," + Self.ectopic, seed: seed)
            let hours = (judged.truth.spans.last?.end ?? 0) / 3600
            #expect(judged.falseStressSeconds() <= 30 * hours, "\(name), seed \(seed): \(judged.stress)")
            print("validation \(name) seed \(seed): false stress \(Int(judged.falseStressSeconds())) s;", judged.realised.map(\.summary).joined(separator: "; "))
        }
    }

    /// Talking is the look-alike the RR series separates worst: speech raises heart rate by a few
    /// bpm and lowers RMSSD (Sloan et al. 1991; Bernardi et al. 2000), and its irregular breaths
    /// sometimes read as faster breathing. Over twelve draws (7 hours of recording) the false
    /// stress stays under 30 s per hour, though a single draw can show one short episode
    /// (docs/science.md, "Known limits").
    @Test func talkingIsRarelyStress() throws {
        var perDraw: [Double] = []
        for seed in UInt64(1)...12 {
            let judged = try Self.judge("rest:10m,talking:15m,rest:10m," + Self.ectopic, seed: seed)
            perDraw.append(judged.falseStressSeconds())
            print("validation talking seed \(seed): false stress \(Int(judged.falseStressSeconds())) s;", judged.realised.map(\.summary).joined(separator: "; "))
        }
        let hours = Double(perDraw.count) * 35 / 60
        #expect(perDraw.reduce(0, +) <= 30 * hours, "\(perDraw)")
        #expect(perDraw.filter { $0 > 0 }.count <= 2, "\(perDraw)")
        #expect(perDraw.allSatisfy { $0 <= 90 }, "\(perDraw)")
    }

    @Test func pacedBreathingIsNamed() throws {
        for seed in Self.seeds {
            let judged = try Self.judge("rest:10m,breathing:10m,rest:10m," + Self.ectopic, seed: seed)
            #expect(judged.share(of: .pacedBreathing, in: 690...1200) >= 0.8, "seed \(seed)")
            #expect(judged.share(of: .pacedBreathing, in: 300...600) <= 0.1, "seed \(seed)")
        }
    }

    @Test func exerciseIsActivityThenRecovery() throws {
        for seed in Self.seeds {
            let judged = try Self.judge("rest:10m,activity:10m,recovery:40m," + Self.ectopic, seed: seed)
            #expect(judged.share(of: .activity, in: 660...1200) >= 0.9, "seed \(seed)")
            #expect(judged.share(of: .recovery, in: 1230...1800) >= 0.9, "seed \(seed)")
            #expect(judged.episodes.filter { $0.kind == .activity }.count == 1, "seed \(seed): \(judged.episodes)")
        }
    }

    @Test func standingUpIsPosture() throws {
        for seed in Self.seeds {
            let judged = try Self.judge("rest:10m,standing:10m,rest:10m," + Self.ectopic, seed: seed)
            let stood = try #require(judged.firstTime(of: .posture, in: 600...900), "seed \(seed)")
            #expect(stood - 600 <= 45, "seed \(seed)")
            // Sitting down again (−12 bpm, no overshoot) is below the step: lower heart rate and
            // higher RMSSD are never stress, and the rolling reference takes the seated level back.
        }
    }

    @Test func moderateStressIsFoundOnTime() throws {
        for seed in UInt64(1)...12 {
            let judged = try Self.judge("rest:10m,stress:8m,rest:10m," + Self.ectopic, seed: seed)
            let realised = judged.realised[1]
            // The episode the issue asks for: HR +6–10 bpm, RMSSD −30..−40 %.
            #expect((5...12).contains(realised.heartRate - judged.realised[0].heartRate), "seed \(seed): \(judged.realised)")
            #expect((0.55...0.75).contains(realised.rmssd / judged.realised[0].rmssd), "seed \(seed): \(judged.realised)")
            #expect(judged.stress.count == 1, "seed \(seed): \(judged.stress)")
            let declared = try #require(judged.firstTime(of: .stress, in: 600...1080), "seed \(seed)")
            #expect(declared - 600 <= 90, "onset, seed \(seed)")
            let episode = try #require(judged.stress.first)
            #expect(episode.end - 1080 <= 120, "release, seed \(seed)")
            #expect(judged.firstTime(of: .stress, in: 1200...1680) == nil, "seed \(seed)")
            #expect(judged.falseStressSeconds() <= 15, "seed \(seed): \(judged.stress)")
            print("validation moderate stress seed \(seed): declared +\(Int(declared - 600)) s, ends +\(Int(episode.end - 1080)) s, false \(Int(judged.falseStressSeconds())) s;", judged.realised.map(\.summary).joined(separator: "; "))
            #expect(episode.reason.map { $0.rmssdChange < -0.2 && $0.heartRateAboveRest >= 3 } == true)
        }
    }

    /// Real RR: MIT-BIH NSR (ambulatory, unlabelled) and resting ECG recordings from the
    /// biosignalsnotebooks package (Fixtures/real): no stress at all.
    @Test(arguments: [
        "mitbih_nsr_30min", "mitbih_nsr_30min_b", "real/biosignalsnotebooks_ecg_5_min_rest",
        "real/biosignalsnotebooks_ecg_2018_7_5_unlabelled",
    ])
    func realRecordingsShowNoStress(name: String) throws {
        var pipeline = HRVPipeline()
        var judge = BeatJudge(detector: StressDetector())
        for interval in try Fixture.intervals(name) { pipeline.append(interval) { _ = judge.judge($0) } }
        judge.finish()
        #expect(judge.episodes.filter { $0.kind == .stress }.isEmpty, "\(judge.episodes)")
        #expect(judge.stateSeconds[.rest] > 60, "\(judge.stateSeconds)")
    }

    @Test func stressStateAlwaysHasALevel() throws {
        let judged = try Self.judge("rest:10m,stress:8m,rest:5m,activity:5m,recovery:10m,stress:6m,rest:5m", seed: 9)
        let stressed = judged.states.filter { $0.state == .stress }
        #expect(!stressed.isEmpty)
        #expect(stressed.allSatisfy { ($0.level ?? 0) > 0 })
    }

    /// A day: a night at low heart rate, getting up, work with talking, two stress episodes, a
    /// workout and its recovery, an evening. Judged against a rolling reference it never becomes
    /// one day-long episode, and both stress episodes are found.
    static let day = [
        "rest:7h:hr=54:rmssd=62:br=12", "standing:5m", "rest:45m", "talking:20m", "rest:40m", "stress:10m",
        "rest:90m", "standing:15m", "rest:60m", "activity:40m:hr=140", "recovery:60m", "rest:45m", "talking:30m",
        "rest:60m", "stress:8m", "rest:2h", "breathing:10m", "rest:3h57m", Self.ectopic,
    ].joined(separator: ",")

    @Test(arguments: [UInt64(1), 2])
    func aDayIsNotOneEpisode(seed: UInt64) throws {
        let judged = try Self.judge(Self.day, seed: seed)
        #expect(judged.stress.allSatisfy { $0.duration < 3600 }, "\(judged.stress)")
        for span in judged.truth.spans where span.kind == .stress {
            #expect(judged.stressSeconds(in: span.start...span.end + 120) >= 0.5 * (span.end - span.start), "\(span)")
        }
        let hours = (judged.truth.spans.last?.end ?? 0) / 3600
        #expect(judged.falseStressSeconds() <= 30 * hours, "\(judged.stress)")
        print("validation day seed \(seed): false stress \(Int(judged.falseStressSeconds())) s, longest episode \(Int(judged.stress.map(\.duration).max() ?? 0)) s, stress found \(judged.truth.spans.filter { $0.kind == .stress }.map { Int(judged.stressSeconds(in: $0.start...$0.end + 120)) })")
    }
}

extension RealisedSegment {
    /// "rest 61 bpm / RMSSD 47 / SDNN 45".
    var summary: String {
        "\(kind.rawValue) \(Int(heartRate.rounded())) bpm / RMSSD \(Int(rmssd.rounded())) / SDNN \(Int(sdnn.rounded()))"
    }
}
