import Foundation
import HRV
import Testing

/// Motion from a chest accelerometer, on synthetic samples at the H10's 50 Hz: stillness with
/// breathing movement, steps at a known cadence, and posture whichever way the strap is turned.
@Suite struct MotionMeterTests {
    /// Rotates (x, y) by `angle` in the plane of the strap's face and flips it when `flipped`:
    /// how a strap may sit on a chest.
    static func turned(_ sample: SIMD3<Double>, by angle: Double, flipped: Bool) -> SIMD3<Double> {
        let x = sample.x * cos(angle) - sample.y * sin(angle)
        let y = sample.x * sin(angle) + sample.y * cos(angle)
        return flipped ? SIMD3(-x, y, -sample.z) : SIMD3(x, y, sample.z)
    }

    /// `seconds` of samples from `sample(t)` through a meter; its seconds.
    static func run(_ seconds: Int, rate: Double = 50, angle: Double = 0, flipped: Bool = false, _ sample: (Double) -> SIMD3<Double>)
        -> [MotionSecond]
    {
        var meter = MotionMeter(sampleRate: rate)
        var out: [MotionSecond] = []
        for index in 0..<(seconds * Int(rate)) {
            let value = turned(sample(Double(index) / rate), by: angle, flipped: flipped)
            if let second = meter.append(x: value.x, y: value.y, z: value.z) { out.append(second) }
        }
        return out
    }

    static func sitting(_ t: Double) -> SIMD3<Double> { SIMD3(1000, 0, 15 * sin(2 * .pi * 0.25 * t)) }
    static func lyingOnTheBack(_ t: Double) -> SIMD3<Double> { SIMD3(15 * sin(2 * .pi * 0.25 * t), 0, 1000) }
    static func walking(_ t: Double) -> SIMD3<Double> {
        SIMD3(1000 + 250 * sin(2 * .pi * 1.8 * t), 60 * sin(2 * .pi * 0.9 * t), 30 * sin(2 * .pi * 3.6 * t))
    }

    @Test(arguments: [(0.0, false), (2.0, false), (3.1, true), (-1.2, true)])
    func sittingIsStillAndUprightHoweverTheStrapIsTurned(angle: Double, flipped: Bool) {
        let seconds = Self.run(10, angle: angle, flipped: flipped, Self.sitting)
        #expect(seconds.count == 10)
        #expect(seconds.allSatisfy { $0.level == .still && $0.posture == .upright && $0.intensity < MotionMeter.stillBelow }, "\(seconds)")
    }

    @Test(arguments: [(0.0, false), (2.0, true)])
    func lyingOnTheBackIsLying(angle: Double, flipped: Bool) {
        let seconds = Self.run(10, angle: angle, flipped: flipped, Self.lyingOnTheBack)
        #expect(seconds.allSatisfy { $0.level == .still && $0.posture == .lying }, "\(seconds)")
    }

    @Test(arguments: [25.0, 50, 100])
    func walkingHasItsCadence(rate: Double) {
        let seconds = Self.run(12, rate: rate, Self.walking)
        let late = seconds.suffix(6)
        #expect(late.allSatisfy { $0.level == .walking && $0.posture == .upright }, "\(late)")
        #expect(late.allSatisfy { abs(($0.cadence ?? 0) - 108) <= 4 }, "1.8 steps a second: \(late.map(\.cadence))")
    }

    /// After walking has shown which way is up, lying on one's side (gravity in the strap's plane,
    /// across) is told from sitting.
    @Test func walkingTeachesUpSoLyingOnTheSideIsSeen() {
        var meter = MotionMeter(sampleRate: 50)
        var last: MotionSecond?
        for index in 0..<(20 * 50) {
            let t = Double(index) / 50
            let value = index < 10 * 50 ? Self.walking(t) : SIMD3(0, 1000, 15 * sin(2 * .pi * 0.25 * t))
            if let second = meter.append(x: value.x, y: value.y, z: value.z) { last = second }
        }
        #expect(last?.level == .still && last?.posture == .lying, "\(String(describing: last))")
        // Without the walk the same samples look upright: the strap alone cannot tell.
        let unknown = Self.run(5) { t in SIMD3(0, 1000, 15 * sin(2 * .pi * 0.25 * t)) }
        #expect(unknown.last?.posture == .upright)
    }

    @Test func movingWithoutRhythmIsMoving() {
        // Standing up: a second-long lurch, no step rhythm.
        let seconds = Self.run(8) { t in
            t >= 3 && t < 4.5 ? SIMD3(1000 + 300 * sin(.pi * (t - 3) / 1.5), 200 * sin(.pi * (t - 3)), 0) : Self.sitting(t)
        }
        #expect(seconds.contains { $0.level == .moving }, "\(seconds.map(\.level))")
        #expect(!seconds.contains { $0.level == .walking })
        #expect(seconds.last?.level == .still)
    }

    @Test func freeFallHasNoPosture() {
        #expect(Self.run(2) { _ in SIMD3(0, 0, 0) }.allSatisfy { $0.posture == nil && $0.level == .still })
    }
}
