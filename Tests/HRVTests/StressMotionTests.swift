import HRV
import Simulation
import TestSupport
import Testing

/// The detector with the simulated strap's chest accelerometer (issue 30's targets): still means
/// a heart-rate rise can be stress or a posture change, never activity; moving means activity
/// whatever the heart rate. Seeds 1–12 were looked at while choosing the rules; 13–20 were run
/// only once the rules were fixed. docs/science.md's "With motion" table comes from these runs.
@Suite struct StressMotionTests {
    typealias Judged = StressValidationTests.Judged
    static let tuned: [UInt64] = Array(1...12)
    static let untuned: [UInt64] = Array(13...20)
    static let seeds = tuned + untuned

    static func judge(_ spec: String, seed: UInt64) throws -> Judged {
        try StressValidationTests.judge(spec + "," + StressValidationTests.ectopic, seed: seed, motion: true)
    }

    /// The issue asks for 60 s; the 60-s RMSSD window and the physiology's own lag (heart rate
    /// rises with a 20–30 s time constant) leave 56–70 s in the draws looked at, 10 s sooner than
    /// without motion, and in three of the eight others it is later still (+76, +105, +231 s):
    /// not met (docs/science.md, "With motion").
    @Test func moderateStressIsDeclaredSoonerWhenStill() throws {
        var late = 0
        for seed in Self.seeds {
            let judged = try Self.judge("rest:10m,stress:8m,rest:10m", seed: seed)
            let declared = try #require(judged.firstTime(of: .stress, in: 600...1080), "seed \(seed)")
            if declared - 600 > 75 { late += 1 }
            #expect(Self.untuned.contains(seed) || declared - 600 <= 72, "seed \(seed): declared +\(Int(declared - 600)) s")
            #expect(judged.stress.count == 1, "seed \(seed): \(judged.stress)")
            #expect(judged.falseStressSeconds() <= 15, "seed \(seed): \(judged.stress)")
            #expect(judged.share(of: .activity, in: 0...1680) == 0, "seed \(seed)")
            print("motion moderate stress seed \(seed): declared +\(Int(declared - 600)) s, ends +\(Int((judged.stress.first?.end ?? 0) - 1080)) s")
        }
        #expect(late <= 3, "\(late) of \(Self.seeds.count) draws declared after 75 s")
    }

    /// Heart rate +26 bpm and RMSSD −80 % at the desk: without motion the detector calls it
    /// exercise (above the 25-bpm activity margin); still, it is stress.
    static let strongStress = "rest:10m,stress:5m:hr=88:rmssd=9,rest:10m"

    @Test func aStrongResponseAtRestIsStressWhenStill() throws {
        for seed in Self.seeds {
            let judged = try Self.judge(Self.strongStress, seed: seed)
            let realised = judged.realised[1]
            #expect(realised.heartRate - judged.realised[0].heartRate >= 22, "seed \(seed): \(judged.realised)")
            #expect(realised.rmssd / judged.realised[0].rmssd <= 0.3, "seed \(seed): \(judged.realised)")
            let declared = try #require(judged.firstTime(of: .stress, in: 600...900), "seed \(seed)")
            #expect(declared - 600 <= 60, "seed \(seed): declared +\(Int(declared - 600)) s")
            #expect(judged.share(of: .stress, in: 700...900) >= 0.9, "seed \(seed)")
            #expect(judged.episodes.allSatisfy { $0.kind == .stress }, "seed \(seed): \(judged.episodes)")
            print("motion strong stress seed \(seed): declared +\(Int(declared - 600)) s")
        }
        // The same RR without the accelerometer: exercise, as before.
        let blind = try StressValidationTests.judge(Self.strongStress + "," + StressValidationTests.ectopic, seed: 1)
        #expect(blind.share(of: .activity, in: 700...900) >= 0.5)
    }

    /// A brisk walk: heart rate +20 bpm, RMSSD halved, steps at ~115 a minute.
    static let briskWalk = "rest:10m,activity:10m:hr=82:rmssd=22:br=18:move=walking,rest:10m"

    @Test func aBriskWalkIsActivityNeverStress() throws {
        for seed in Self.seeds {
            let judged = try Self.judge(Self.briskWalk, seed: seed)
            #expect(judged.stress.isEmpty, "seed \(seed): \(judged.stress)")
            #expect(judged.share(of: .activity, in: 615...1200) >= 0.95, "seed \(seed)")
            #expect(judged.episodes.filter { $0.kind == .activity }.count == 1, "seed \(seed): \(judged.episodes)")
            #expect(!judged.states.contains { $0.time > 1215 && $0.state == .activity }, "seed \(seed)")
        }
        // Without the accelerometer the walk is below the activity margin and reads as stress.
        let blind = try StressValidationTests.judge(Self.briskWalk + "," + StressValidationTests.ectopic, seed: 1)
        #expect(!blind.stress.isEmpty)
    }

    @Test(arguments: StressValidationTests.lookAlikes + [("talking", "rest:10m,talking:15m,rest:10m")])
    func noFalseStress(name: String, spec: String) throws {
        var perDraw: [Double] = []
        for seed in Self.seeds {
            let judged = try Self.judge(spec, seed: seed)
            perDraw.append(judged.falseStressSeconds())
            print("motion \(name) seed \(seed): false stress \(Int(judged.falseStressSeconds())) s")
        }
        let hours = Double(perDraw.count) * ((try Scenario(parsing: spec)).duration / 3600)
        #expect(perDraw.reduce(0, +) <= 30 * hours, "\(name): \(perDraw)")
        #expect(perDraw.allSatisfy { $0 <= 90 }, "\(name): \(perDraw)")
    }

    /// Talking sways the trunk (the simulator's gestures at 0.4 and 1.1 Hz) over the breath: the
    /// chest reads no breathing from that mixture (its quality stays under
    /// `ChestBreathingMeter.minimumQuality`), so the gestures do not pass for faster breathing.
    /// With a quality of 0.5 these draws showed 47–414 s of false stress each.
    @Test func talkingGesturesAreNotBreathing() throws {
        let scenario = try Scenario(parsing: "rest:2m,talking:3m")
        for seed: UInt64 in [3, 9, 18, 19] {
            let seconds = SimulatedMotion.seconds(of: scenario, seed: seed)
            #expect(seconds[60..<120].allSatisfy { $0.breathing != nil }, "seed \(seed): seated rest breathes")
            #expect(seconds[160...].allSatisfy { $0.breathing == nil }, "seed \(seed): \(seconds[160...].compactMap(\.breathing))")
        }
    }

    /// The tests share each scenario's simulated motion (`SimulatedMotion.shared`): what they
    /// share is what the simulated strap and its meter give for that scenario and seed, made once.
    @Test func sharedMotionIsTheSimulatedStrapsOwn() throws {
        let spec = "rest:1m,talking:1m," + StressValidationTests.ectopic
        let made = SimulatedMotion.seconds(of: try Scenario(parsing: spec), seed: 7)
        #expect(made.count == 120)
        #expect(try SimulatedMotion.shared(spec, seed: 7) == made)
        #expect(try SimulatedMotion.shared(spec, seed: 7) == made)
        #expect(try SimulatedMotion.shared(spec, seed: 8) != made)
    }

    /// Standing up moves the chest, then heart rate steps up: posture, with the accelerometer as
    /// without it; and the exercise preset runs (`activity` moves by default): activity, then recovery.
    @Test func standingUpAndExercise() throws {
        for seed in Self.seeds {
            let stood = try Self.judge("rest:10m,standing:10m,rest:10m", seed: seed)
            let posture = try #require(stood.firstTime(of: .posture, in: 600...900), "seed \(seed)")
            #expect(posture - 600 <= 45, "seed \(seed)")
            #expect(stood.share(of: .activity, in: 0...1800) == 0, "seed \(seed)")
            let exercised = try Self.judge("rest:10m,activity:10m,recovery:40m", seed: seed)
            #expect(exercised.share(of: .activity, in: 615...1200) >= 0.95, "seed \(seed)")
            #expect(exercised.share(of: .recovery, in: 1230...1800) >= 0.9, "seed \(seed)")
        }
    }
}
