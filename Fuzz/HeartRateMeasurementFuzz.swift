import HeartRateProtocol

/// Any bytes: parsed or refused with an error, never a trap; what parses encodes back to a
/// value that parses to the same measurement.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeartRateMeasurement(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let measurement = try? HeartRateMeasurement(parsing: bytes) else { return 0 }
    let again = try? HeartRateMeasurement(parsing: measurement.encoded(uint16HeartRate: measurement.heartRate > 255))
    precondition(again?.heartRate == measurement.heartRate && again?.rrIntervals == measurement.rrIntervals, "round trip changed \(Array(bytes))")
    return 0
}
