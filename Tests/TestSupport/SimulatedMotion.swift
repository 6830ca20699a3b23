import HRV
import Simulation
import Synchronization

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

    /// `seconds(of:seed:)` of the scenario `spec`, made once per test run: the motion tests judge
    /// the same scenario and seed in more than one test, and the 50-Hz accelerometer through its
    /// meter costs about 15 times what the beats, the pipeline and the detector cost together (in
    /// the debug build, about 0.15 s of CPU per simulated minute). A test that asks while another
    /// makes the same seconds waits for them rather than making them again.
    public static func shared(_ spec: String, seed: UInt64) throws -> [MotionSecond] {
        let scenario = try Scenario(parsing: spec)
        let entry = made.withLock { entries in
            if let entry = entries[Key(spec: spec, seed: seed)] { return entry }
            let entry = Entry()
            entries[Key(spec: spec, seed: seed)] = entry
            return entry
        }
        return entry.seconds.withLock { seconds in
            if let seconds { return seconds }
            let made = Self.seconds(of: scenario, seed: seed)
            seconds = made
            return made
        }
    }

    private struct Key: Hashable {
        let spec: String
        let seed: UInt64
    }

    private final class Entry: Sendable {
        let seconds = Mutex<[MotionSecond]?>(nil)
    }

    private static let made = Mutex<[Key: Entry]>([:])
}
