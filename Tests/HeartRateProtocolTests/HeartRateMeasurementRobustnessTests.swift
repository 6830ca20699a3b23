import HeartRateProtocol
import Simulation
import Testing

/// Arbitrary bytes must parse or throw, never trap, and agree with an
/// independent reading of the spec layout.
@Suite struct HeartRateMeasurementRobustnessTests {
    @Test func arbitraryBytesParseOrThrowConsistently() {
        var generator = SeededGenerator(seed: 0x180D)
        var outcomes: [String: Int] = [:]
        var violationCount = 0
        var firstViolations: [String] = []

        for _ in 0..<200_000 {
            let bytes = randomPacket(using: &generator)
            let outcome = parse(bytes)
            outcomes[outcome.kind, default: 0] += 1

            if let problem = firstViolation(bytes: bytes, outcome: outcome, generator: &generator) {
                violationCount += 1
                if firstViolations.count < 5 { firstViolations.append("\(bytes): \(problem)") }
            }
        }

        #expect(violationCount == 0, "first of \(violationCount): \(firstViolations)")
        // Every path must have been exercised, or the loop proves little.
        for kind in ["parsed", "parsed with zero RR", "emptyPacket", "truncatedHeartRate",
                     "truncatedEnergyExpended", "oddRRIntervalByteCount"] {
            #expect(outcomes[kind, default: 0] >= 100, "\(kind): \(outcomes)")
        }
    }

    /// Lengths 0...40; a quarter of the bytes are 0 so zero RR values and
    /// zero flags are common rather than 1-in-65536 events.
    private func randomPacket(using generator: inout SeededGenerator) -> [UInt8] {
        let length = Int.random(in: 0...40, using: &generator)
        return (0..<length).map { _ in
            Int.random(in: 0..<4, using: &generator) == 0 ? 0 : .random(in: 0...UInt8.max, using: &generator)
        }
    }

    private func parse(_ bytes: some Collection<UInt8>) -> Result<HeartRateMeasurement, HeartRateMeasurementError> {
        Result { () throws(HeartRateMeasurementError) in try HeartRateMeasurement(parsing: bytes) }
    }

    private func firstViolation(
        bytes: [UInt8],
        outcome: Result<HeartRateMeasurement, HeartRateMeasurementError>,
        generator: inout SeededGenerator
    ) -> String? {
        let expected = referenceParse(bytes)
        guard outcome == expected else { return "got \(outcome), reference says \(expected)" }

        // The same bytes behind unrelated ones, as a slice, read the same.
        let padding = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
        }
        let stream = padding + bytes
        let sliced = parse(stream[padding.count...])
        guard sliced == outcome else { return "slice gave \(sliced), array gave \(outcome)" }

        guard case .success(let measurement) = outcome else { return nil }
        let flags = bytes[0]
        let headerLength = 1 + (flags & 0x01 == 0 ? 1 : 2) + (flags & 0x08 == 0 ? 0 : 2)
        let rrByteCount = 2 * (measurement.rrIntervals.count + measurement.zeroRRCount)

        if measurement.rrIntervals.contains(0) { return "zero in rrIntervals" }
        if headerLength + rrByteCount > bytes.count { return "more fields than bytes" }
        if flags & 0x10 != 0, headerLength + rrByteCount != bytes.count { return "RR bytes left unread" }
        if flags & 0x10 == 0, rrByteCount != 0 { return "RR values without RR flag" }
        if (measurement.energyExpended != nil) != (flags & 0x08 != 0) { return "EE presence disagrees with flag" }
        if measurement.heartRate > 255, flags & 0x01 == 0 { return "UInt8 field gave \(measurement.heartRate)" }

        let reencoded = parse(measurement.encoded(uint16HeartRate: flags & 0x01 != 0))
        guard reencoded == outcome else { return "re-encoding parsed as \(reencoded)" }
        return nil
    }
}

extension Result<HeartRateMeasurement, HeartRateMeasurementError> {
    fileprivate var kind: String {
        switch self {
        case .success(let measurement): measurement.zeroRRCount > 0 ? "parsed with zero RR" : "parsed"
        case .failure(.emptyPacket): "emptyPacket"
        case .failure(.truncatedHeartRate): "truncatedHeartRate"
        case .failure(.truncatedEnergyExpended): "truncatedEnergyExpended"
        case .failure(.oddRRIntervalByteCount): "oddRRIntervalByteCount"
        }
    }
}

/// The spec layout read with plain integer offsets, independently of the
/// library's reader, as the oracle for the randomized test.
private func referenceParse(_ b: [UInt8]) -> Result<HeartRateMeasurement, HeartRateMeasurementError> {
    guard !b.isEmpty else { return .failure(.emptyPacket) }
    let flags = b[0]
    let hrSize = flags & 0x01 == 0 ? 1 : 2
    guard b.count >= 1 + hrSize else {
        return .failure(.truncatedHeartRate(needed: hrSize, available: b.count - 1))
    }
    let heartRate = hrSize == 1 ? UInt16(b[1]) : UInt16(b[1]) + UInt16(b[2]) * 256
    var offset = 1 + hrSize

    var energyExpended: UInt16?
    if flags & 0x08 != 0 {
        guard b.count >= offset + 2 else {
            return .failure(.truncatedEnergyExpended(offset: offset, available: b.count - offset))
        }
        energyExpended = UInt16(b[offset]) + UInt16(b[offset + 1]) * 256
        offset += 2
    }

    let contact: HeartRateMeasurement.SensorContact =
        switch (flags >> 1) & 0b11 {
        case 0b10: .notDetected
        case 0b11: .detected
        default: .notSupported
        }

    var rrIntervals: [UInt16] = []
    var zeroRRCount = 0
    if flags & 0x10 != 0 {
        guard (b.count - offset) % 2 == 0 else {
            return .failure(.oddRRIntervalByteCount(offset: offset, byteCount: b.count - offset))
        }
        for start in stride(from: offset, to: b.count, by: 2) {
            let ticks = UInt16(b[start]) + UInt16(b[start + 1]) * 256
            if ticks == 0 { zeroRRCount += 1 } else { rrIntervals.append(ticks) }
        }
    }
    return .success(HeartRateMeasurement(
        heartRate: heartRate, sensorContact: contact, energyExpended: energyExpended,
        rrIntervals: rrIntervals, zeroRRCount: zeroRRCount))
}
