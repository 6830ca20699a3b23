import HeartRateProtocol
import Testing

/// Every way a Heart Rate Measurement can be malformed, with the exact error.
@Suite struct HeartRateMeasurementErrorTests {
    @Test func emptyPacket() {
        #expect(throws: HeartRateMeasurementError.emptyPacket) {
            try HeartRateMeasurement(parsing: [UInt8]())
        }
    }

    @Test(arguments: [
        // flags only: the HR value is missing entirely
        ([UInt8(0x00)], HeartRateMeasurementError.truncatedHeartRate(needed: 1, available: 0)),
        ([0x1E], .truncatedHeartRate(needed: 1, available: 0)),  // all optional fields flagged
        ([0x01], .truncatedHeartRate(needed: 2, available: 0)),  // UInt16 HR, no bytes
        ([0x01, 0x2C], .truncatedHeartRate(needed: 2, available: 1)),  // UInt16 HR, 1 of 2 bytes
    ])
    func truncatedHeartRate(packet: [UInt8], error: HeartRateMeasurementError) {
        #expect(throws: error) { try HeartRateMeasurement(parsing: packet) }
    }

    @Test(arguments: [
        // EE flagged after a UInt8 HR: EE starts at offset 2
        ([UInt8(0x08), 0x48], HeartRateMeasurementError.truncatedEnergyExpended(offset: 2, available: 0)),
        ([0x08, 0x48, 0x10], .truncatedEnergyExpended(offset: 2, available: 1)),
        // EE flagged after a UInt16 HR: EE starts at offset 3
        ([0x09, 0x2C, 0x01], .truncatedEnergyExpended(offset: 3, available: 0)),
        ([0x09, 0x2C, 0x01, 0x10], .truncatedEnergyExpended(offset: 3, available: 1)),
        // RR flag too: the missing EE is reported, not the RR field
        ([0x18, 0x48, 0x10], .truncatedEnergyExpended(offset: 2, available: 1)),
    ])
    func truncatedEnergyExpended(packet: [UInt8], error: HeartRateMeasurementError) {
        #expect(throws: error) { try HeartRateMeasurement(parsing: packet) }
    }

    @Test(arguments: [
        // flags RR, HR 72, then a lone byte
        ([UInt8(0x10), 0x48, 0x00], HeartRateMeasurementError.oddRRIntervalByteCount(offset: 2, byteCount: 1)),
        // one whole RR (1024) plus half of another
        ([0x10, 0x48, 0x00, 0x04, 0x00], .oddRRIntervalByteCount(offset: 2, byteCount: 3)),
        // UInt16 HR + EE + RR: field starts at offset 5; one RR + half
        ([0x19, 0x2C, 0x01, 0x10, 0x00, 0x00, 0x04, 0x01], .oddRRIntervalByteCount(offset: 5, byteCount: 3)),
        // UInt16 HR, no EE: field starts at offset 3
        ([0x11, 0x48, 0x00, 0x01], .oddRRIntervalByteCount(offset: 3, byteCount: 1)),
    ])
    func oddRRIntervalByteCount(packet: [UInt8], error: HeartRateMeasurementError) {
        #expect(throws: error) { try HeartRateMeasurement(parsing: packet) }
    }

    @Test func offsetsCountFromSliceStartNotBaseIndex() {
        let stream: [UInt8] = [
            0xEE, 0xEE, 0xEE, 0xEE,  // unrelated bytes before the packet
            0x18,  // flags: EE + RR
            0x48,  // HR = 72 bpm
            0x10,  // half an EE field
        ]
        #expect(throws: HeartRateMeasurementError.truncatedEnergyExpended(offset: 2, available: 1)) {
            try HeartRateMeasurement(parsing: stream[4...])
        }
        #expect(throws: HeartRateMeasurementError.emptyPacket) {
            try HeartRateMeasurement(parsing: stream[7...])
        }
    }

    @Test(arguments: [
        (HeartRateMeasurementError.emptyPacket,
         "Heart Rate Measurement is empty: expected at least a flags byte"),
        (.truncatedHeartRate(needed: 2, available: 1),
         "Heart Rate Measurement truncated: heart-rate value at offset 1 needs 2 bytes, has 1"),
        (.truncatedHeartRate(needed: 1, available: 0),
         "Heart Rate Measurement truncated: heart-rate value at offset 1 needs 1 byte, has 0"),
        (.truncatedEnergyExpended(offset: 3, available: 0),
         "Heart Rate Measurement truncated: energy expended at offset 3 needs 2 bytes, has 0"),
        (.oddRRIntervalByteCount(offset: 5, byteCount: 3),
         "Heart Rate Measurement malformed: RR-interval field at offset 5 has 3 bytes, not a multiple of 2"),
        (.oddRRIntervalByteCount(offset: 2, byteCount: 1),
         "Heart Rate Measurement malformed: RR-interval field at offset 2 has 1 byte, not a multiple of 2"),
    ])
    func descriptionIsOneLineNamingWhereAndHowMuch(error: HeartRateMeasurementError, message: String) {
        #expect(error.description == message)
        #expect(!error.description.contains("\n"))
    }
}
