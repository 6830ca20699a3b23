import Foundation
import HRV
import Recordings

/// Test fixtures under Fixtures/ (provenance in each file's header and in Fixtures/README.md).
public enum Fixture {
    /// The Fixtures folder, copied into the test bundle as a resource.
    public static var directory: URL { Bundle.module.resourceURL!.appendingPathComponent("Fixtures") }

    public static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }

    /// A fixture's intervals (ms, one per line, `#` comments) as strap ticks, rounded to 1/1024 s.
    public static func ticks(_ name: String) -> [Int] {
        ((try? String(contentsOf: url(name), encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { Int(($0 * 1.024).rounded()) }
    }

    public static func intervals(_ name: String) throws -> [RRInterval] {
        let bytes = [UInt8](try Data(contentsOf: url(name + ".txt")))
        return try RRFileReader.read(bytes, source: name).intervals
    }

    /// NeuroKit2 values for a fixture, from `<name>.reference.json`.
    public static func reference(_ name: String) throws -> NeuroKitReference {
        try JSONDecoder().decode(NeuroKitReference.self, from: Data(contentsOf: url(name + ".reference.json")))
    }

    /// NeuroKit2 variability and Poincaré values, from `<name>.reference.variability.json`.
    public static func variabilityReference(_ name: String) throws -> VariabilityReference {
        try JSONDecoder().decode(VariabilityReference.self, from: Data(contentsOf: url(name + ".reference.variability.json")))
    }
}

/// What make_variability_reference.py writes.
public struct VariabilityReference: Decodable {
    public var SDSD: Double
    public var CVNN: Double
    public var pNN20: Double
    public var SD1: Double
    public var SD2: Double
    public var SD1SD2: Double
}

public struct NeuroKitReference: Decodable {
    public struct Metrics: Decodable {
        public var MeanNN: Double
        public var SDNN: Double
        public var RMSSD: Double
        public var pNN50: Double
        public var beats: Int
    }

    public var raw: Metrics
    public var corrected: Metrics
    public var artifacts: [String: [Int]]
}
