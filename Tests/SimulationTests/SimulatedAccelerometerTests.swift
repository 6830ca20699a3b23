import Simulation
import Testing

/// The simulated chest accelerometer against what trunk accelerometry measures: 1 G of gravity in
/// the strap's plane while upright, a breathing-sized tilt at rest, steps at the segment's cadence.
@Suite struct SimulatedAccelerometerTests {
    static let scenario = try! Scenario(parsing: "rest:1m,talking:1m,standing:1m,activity:1m:move=walking,activity:1m,breathing:1m")

    /// Per second: the mean vector (gravity) and the RMS of what is left around it, mG.
    static func summary(_ samples: [SIMD3<Double>]) -> (gravity: SIMD3<Double>, intensity: Double) {
        let mean = samples.reduce(SIMD3<Double>(), +) / Double(samples.count)
        let squares = samples.reduce(0.0) { $0 + (($1 - mean) * ($1 - mean)).sum() }
        return (mean, (squares / Double(samples.count)).squareRoot())
    }

    static func intensities(_ accelerometer: SimulatedAccelerometer, _ seconds: Range<Int>) -> [Double] {
        seconds.map { summary(accelerometer.samples(second: $0)).intensity }
    }

    @Test func segmentsMoveAsTheirKind() {
        for seed in UInt64(1)...4 {
            let accelerometer = SimulatedAccelerometer(scenario: Self.scenario, seed: seed)
            #expect(accelerometer.seconds == 360)
            #expect(accelerometer.samples(second: 0).count == 50)
            for second in [10, 70, 150, 350] {
                let gravity = Self.summary(accelerometer.samples(second: second)).gravity
                let size = (gravity * gravity).sum().squareRoot()
                #expect(abs(size - 1000) < 30, "seed \(seed) second \(second): \(size)")
                #expect(abs(gravity.z) / size < 0.3, "upright: gravity in the strap's plane")
            }
            let still = Self.intensities(accelerometer, 0..<60) + Self.intensities(accelerometer, 60..<120)
                + Self.intensities(accelerometer, 124..<180) + Self.intensities(accelerometer, 300..<360)
            #expect(still.allSatisfy { $0 < 30 }, "seed \(seed): \(still.max() ?? 0)")
            #expect(still.allSatisfy { $0 > 2 }, "breathing, the heart and the sensor's noise are never nothing")
            // Standing up at 120 s: the chest leans and rises for about three seconds.
            #expect(Self.intensities(accelerometer, 120..<123).max()! > 60, "seed \(seed)")
            let walking = Self.intensities(accelerometer, 180..<240), running = Self.intensities(accelerometer, 240..<300)
            #expect(walking.allSatisfy { (120...300).contains($0) }, "seed \(seed): \(walking.min()!)–\(walking.max()!)")
            #expect(running.allSatisfy { $0 > 450 }, "seed \(seed): \(running.min()!)")
        }
    }

    /// The bounce of each step along gravity repeats at the cadence: ~2 Hz walking, ~2.75 Hz running.
    @Test func stepsAtTheirCadence() {
        let accelerometer = SimulatedAccelerometer(scenario: Self.scenario, seed: 3)
        for (range, cadences) in [(180..<240, 105.0...125.0), (240..<300, 150.0...180.0)] {
            let samples = range.flatMap { accelerometer.samples(second: $0) }
            let up = Self.summary(samples).gravity / 1000
            let vertical = samples.map { ($0 * up).sum() }
            let mean = vertical.reduce(0, +) / Double(vertical.count)
            let upward = zip(vertical, vertical.dropFirst()).filter { $0 < mean && $1 >= mean }.count
            // The step's harmonic crosses the mean too; the fundamental crosses once a step.
            let perMinute = Double(upward) * 60 / Double(range.count)
            #expect(cadences.contains(perMinute), "\(range): \(perMinute) a minute")
        }
    }

    @Test func seededAndTurnedAsWorn() {
        let a = SimulatedAccelerometer(scenario: Self.scenario, seed: 1), b = SimulatedAccelerometer(scenario: Self.scenario, seed: 2)
        #expect(a.samples(second: 200) == SimulatedAccelerometer(scenario: Self.scenario, seed: 1).samples(second: 200))
        let gravityA = Self.summary(a.samples(second: 10)).gravity, gravityB = Self.summary(b.samples(second: 10)).gravity
        let cosine = (gravityA * gravityB).sum() / 1_000_000
        #expect(cosine < 0.9, "two draws wear the strap turned differently")
    }

    @Test func groundTruthNamesMovementAndPostureChanges() {
        let (_, truth) = Simulator(scenario: Self.scenario, seed: 1).run()
        #expect(truth.spans.map(\.movement) == [.still, .still, .still, .walking, .running, .still])
        #expect(truth.postureChanges == [120, 180])
    }
}
