import HRV

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
