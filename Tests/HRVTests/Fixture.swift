import Foundation
import HRV
import Recordings

/// Test fixtures under Fixtures/ (provenance in each file's header and in Fixtures/README.md).
enum Fixture {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")!
    }

    static func intervals(_ name: String) throws -> [RRInterval] {
        let bytes = [UInt8](try Data(contentsOf: url(name + ".txt")))
        return try RRFileReader.read(bytes, source: name).intervals
    }

    /// NeuroKit2 values for a fixture, from `<name>.reference.json`.
    static func reference(_ name: String) throws -> NeuroKitReference {
        try JSONDecoder().decode(NeuroKitReference.self, from: Data(contentsOf: url(name + ".reference.json")))
    }

    /// NeuroKit2 variability and Poincaré values, from `<name>.reference.variability.json`.
    static func variabilityReference(_ name: String) throws -> VariabilityReference {
        try JSONDecoder().decode(VariabilityReference.self, from: Data(contentsOf: url(name + ".reference.variability.json")))
    }
}

/// What make_variability_reference.py writes.
struct VariabilityReference: Decodable {
    var SDSD: Double
    var CVNN: Double
    var pNN20: Double
    var SD1: Double
    var SD2: Double
    var SD1SD2: Double
}

struct NeuroKitReference: Decodable {
    struct Metrics: Decodable {
        var MeanNN: Double
        var SDNN: Double
        var RMSSD: Double
        var pNN50: Double
        var beats: Int
    }

    var raw: Metrics
    var corrected: Metrics
    var artifacts: [String: [Int]]
}

/// Runs intervals through a pipeline and returns every update and the pipeline.
func process(
    _ intervals: [RRInterval], configuration: HRVPipeline.Configuration = .init()
) -> (updates: [HRVUpdate], pipeline: HRVPipeline) {
    var pipeline = HRVPipeline(configuration: configuration)
    var updates: [HRVUpdate] = []
    for interval in intervals { pipeline.append(interval) { updates.append($0) } }
    pipeline.finish { updates.append($0) }
    return (updates, pipeline)
}

func relativeError(_ value: Double?, _ reference: Double) -> Double {
    guard let value else { return .infinity }
    return abs(value - reference) / abs(reference)
}
