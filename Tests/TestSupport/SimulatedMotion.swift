import HRV
import Simulation

/// A simulated strap's accelerometer as the live session reads it: every second of the scenario
/// through a `MotionMeter`, as `SessionRun` turns the strap's (or the demo's) samples into motion.
public enum SimulatedMotion {
    /// The seconds of `scenario`, in order: element n ends at n + 1 s.
    public static func seconds(of scenario: Scenario, seed: UInt64) -> [MotionSecond] {
        let accelerometer = SimulatedAccelerometer(scenario: scenario, seed: seed)
        var meter = MotionMeter(sampleRate: accelerometer.sampleRate)
        return (0..<accelerometer.seconds).compactMap { second in
            accelerometer.samples(second: second).reduce(nil) { _, sample in meter.append(x: sample.x, y: sample.y, z: sample.z) }
        }
    }
}
