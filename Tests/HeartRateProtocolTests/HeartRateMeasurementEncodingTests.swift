import HeartRateProtocol
import Simulation
import Testing

@Suite struct HeartRateMeasurementEncodingTests {
    @Test func encodesEveryFieldInSpecLayout() {
        let measurement = HeartRateMeasurement(
            heartRate: 300, sensorContact: .detected, energyExpended: 0x1234, rrIntervals: [1024, 980])
        #expect(measurement.encoded() == [
            0x1F,  // flags: UInt16 HR (300 > 255), contact supported + detected, EE, RR
            0x2C, 0x01,  // HR = 300
            0x34, 0x12,  // EE = 0x1234
            0x00, 0x04,  // RR₀ = 1024
            0xD4, 0x03,  // RR₁ = 980
        ])
    }

    @Test func encodesUInt8HeartRateByDefault() {
        #expect(HeartRateMeasurement(heartRate: 255, sensorContact: .notDetected).encoded() == [
            0x04,  // flags: contact supported, not detected
            0xFF,  // HR = 255
        ])
    }

    @Test func encodesUInt16HeartRateOnRequest() {
        #expect(HeartRateMeasurement(heartRate: 72).encoded(uint16HeartRate: true) == [
            0x01,  // flags: UInt16 HR
            0x48, 0x00,  // HR = 72
        ])
    }

    @Test func encodesZeroRRValuesAfterTheOthers() {
        let measurement = HeartRateMeasurement(heartRate: 60, rrIntervals: [1024], zeroRRCount: 2)
        #expect(measurement.encoded() == [
            0x10,  // flags: RR
            0x3C,  // HR = 60
            0x00, 0x04,  // RR₀ = 1024
            0x00, 0x00,  // zero RR
            0x00, 0x00,  // zero RR
        ])
    }

    @Test func roundTripsRandomMeasurements() throws {
        var generator = SeededGenerator(seed: 0x2A37)
        var sawUInt16HeartRate = false
        var sawZeroRR = false
        for _ in 0..<20_000 {
            let measurement = HeartRateMeasurement.random(using: &generator)
            let uint16HeartRate = Bool.random(using: &generator)
            let bytes = measurement.encoded(uint16HeartRate: uint16HeartRate)

            let writesUInt16 = uint16HeartRate || measurement.heartRate > 255
            let rrCount = measurement.rrIntervals.count + measurement.zeroRRCount
            let expectedCount = 1 + (writesUInt16 ? 2 : 1)
                + (measurement.energyExpended == nil ? 0 : 2) + 2 * rrCount
            guard bytes.count == expectedCount, (bytes[0] & 0x01 != 0) == writesUInt16 else {
                Issue.record("bad layout \(bytes) for \(measurement)")
                return
            }
            let parsed = try HeartRateMeasurement(parsing: bytes)
            guard parsed == measurement else {
                Issue.record("\(measurement) → \(bytes) → \(parsed)")
                return
            }
            sawUInt16HeartRate = sawUInt16HeartRate || writesUInt16
            sawZeroRR = sawZeroRR || measurement.zeroRRCount > 0
        }
        #expect(sawUInt16HeartRate && sawZeroRR)
    }
}

extension HeartRateMeasurement {
    /// A measurement that satisfies the type's invariants (no zero in
    /// `rrIntervals`), mostly with strap-like values but sometimes extreme.
    static func random(using generator: inout SeededGenerator) -> HeartRateMeasurement {
        let heartRate: UInt16 =
            Bool.random(using: &generator)
            ? .random(in: 30...220, using: &generator)
            : .random(in: 0...UInt16.max, using: &generator)
        let contacts: [SensorContact] = [.notSupported, .notDetected, .detected]
        let rrCount = Int.random(in: 0...9, using: &generator)
        return HeartRateMeasurement(
            heartRate: heartRate,
            sensorContact: contacts.randomElement(using: &generator) ?? .notSupported,
            energyExpended: Bool.random(using: &generator) ? .random(in: 0...UInt16.max, using: &generator) : nil,
            rrIntervals: (0..<rrCount).map { _ in .random(in: 1...UInt16.max, using: &generator) },
            zeroRRCount: Int.random(in: 0...4, using: &generator) == 0 ? Int.random(in: 1...3, using: &generator) : 0
        )
    }
}
