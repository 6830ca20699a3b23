import Foundation
import HRV
import Simulation
import Testing

/// Breathing from the chest's tilt, on synthetic samples at the H10's 50 Hz through a
/// `MotionMeter`, as the live session reads them: the rate and phase whichever way the strap is
/// turned or flipped, and none while walking, while the chest moves irregularly (talking,
/// fidgeting) or when it does not move with the breath at all.
@Suite struct ChestBreathingTests {
    typealias Turn = (angle: Double, flipped: Bool)
    static let turns: [Turn] = [(0, false), (2.0, false), (3.1, true), (-1.2, true)]

    /// Seated, leaning ~10° forward; the breath tilts gravity onto the face by `depth` radians,
    /// plus the heart's recoil and the sensor's noise.
    static func seated(rate: Double, depth: Double = 0.012, seed: UInt64 = 1) -> (Double) -> SIMD3<Double> {
        var generator = SeededGenerator(seed: seed)
        return { t in
            let tilt = 0.17 + depth * sin(2 * .pi * rate / 60 * t)
            let recoil = 4 * sin(2 * .pi * 1.2 * t)
            let jitter = SIMD3(Double.random(in: -5...5, using: &generator), Double.random(in: -5...5, using: &generator), Double.random(in: -5...5, using: &generator))
            return SIMD3(1000 * cos(tilt), 0, 1000 * sin(tilt) + recoil) + jitter
        }
    }

    static func seconds(_ count: Int, turn: Turn = (0, false), _ sample: (Double) -> SIMD3<Double>) -> [MotionSecond] {
        MotionMeterTests.run(count, angle: turn.angle, flipped: turn.flipped, sample)
    }

    @Test(arguments: turns)
    func theRateAndPhaseWhicheverWayTheStrapIsTurned(turn: Turn) throws {
        for rate in [6.0, 12, 20] {
            let seconds = Self.seconds(60, turn: turn, Self.seated(rate: rate))
            #expect(seconds.prefix(31).allSatisfy { $0.breathing == nil }, "the window fills first")
            let read = seconds.suffix(20).compactMap(\.breathing)
            #expect(read.count == 20, "rate \(rate): \(seconds.suffix(20))")
            for (index, breathing) in zip(40..., read) {
                #expect(abs(breathing.rate - rate) < 0.5, "rate \(rate): \(breathing)")
                #expect(breathing.quality > 0.8, "rate \(rate): \(breathing)")
                // The tilt onto the face rises for the first half of each breath (from its trough at 3/4).
                let cycles = Double(index + 1) * rate / 60
                let within = (cycles + 0.25).truncatingRemainder(dividingBy: 1)
                let expected = within < 0.5 ? ChestBreathing.Phase.inhaling : .exhaling
                if min(abs(within - 0.5), min(within, 1 - within)) > 0.08 {
                    #expect(breathing.phase == expected, "rate \(rate) second \(index + 1): \(breathing)")
                }
                #expect(abs(breathing.breathBegan - within * 60 / rate) < 0.6 || abs(breathing.breathBegan - within * 60 / rate) > 60 / rate - 0.6,
                        "rate \(rate) second \(index + 1): \(breathing)")
            }
        }
    }

    @Test func noneWhileWalking() {
        #expect(Self.seconds(60, MotionMeterTests.walking).allSatisfy { $0.breathing == nil })
    }

    @Test func noneAfterMovingUntilTheWindowRefills() {
        let breathe = Self.seated(rate: 12)
        let seconds = Self.seconds(80) { t in t >= 40 && t < 45 ? MotionMeterTests.walking(t) : breathe(t) }
        #expect(seconds[38].breathing != nil)
        #expect(seconds[40..<76].allSatisfy { $0.breathing == nil }, "\(seconds[40..<76].map(\.breathing))")
        #expect(seconds[78].breathing != nil)
    }

    @Test(arguments: turns)
    func noneWithoutBreathingMovement(turn: Turn) {
        let seconds = Self.seconds(60, turn: turn, Self.seated(rate: 12, depth: 0))
        #expect(seconds.allSatisfy { $0.level == .still && $0.breathing == nil }, "\(seconds.compactMap(\.breathing))")
    }

    /// Talking and fidgeting: the trunk sways at no one rate, by a few tens of mG (still), over
    /// shallow breathing.
    @Test(arguments: turns)
    func noneWhileTheChestMovesIrregularly(turn: Turn) {
        let breathe = Self.seated(rate: 15, depth: 0.006)
        var gestures = SeededGenerator(seed: 7)
        let sways = (0..<8).map { _ in (frequency: 0.1 + 0.9 * gestures.nextUnit(), phase: 2 * .pi * gestures.nextUnit()) }
        let seconds = Self.seconds(90, turn: turn) { t in
            let sway = sways.reduce(0.0) { $0 + 0.008 * sin(2 * .pi * $1.frequency * t + $1.phase) }
            return breathe(t) + SIMD3(-170 * sway, 0, 1000 * sway)
        }
        #expect(seconds.allSatisfy { $0.level == .still }, "\(seconds.map(\.intensity))")
        let reported = seconds.compactMap(\.breathing)
        #expect(reported.count <= 5, "\(reported)")
    }
}
