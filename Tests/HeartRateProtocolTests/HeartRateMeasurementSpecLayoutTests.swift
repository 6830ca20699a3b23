import Foundation
import HeartRateProtocol
import Testing

/// Packets written out byte by byte from the Heart Rate Measurement (0x2A37)
/// layout: flags, heart rate, [energy expended], [RR intervals…], little-endian.
@Suite struct HeartRateMeasurementSpecLayoutTests {
    @Test func uint8HeartRateOnly() throws {
        let packet: [UInt8] = [
            0x00,  // flags: UInt8 HR, no contact feature, no EE, no RR
            0x48,  // HR = 72 bpm
        ]
        #expect(try HeartRateMeasurement(parsing: packet) == HeartRateMeasurement(heartRate: 72))
    }

    @Test func uint16HeartRate() throws {
        let packet: [UInt8] = [
            0x01,  // flags: bit0 → UInt16 HR
            0x2C,  // HR low byte
            0x01,  // HR high byte → 0x012C = 300 bpm
        ]
        #expect(try HeartRateMeasurement(parsing: packet) == HeartRateMeasurement(heartRate: 300))
    }

    @Test func uint16HeartRateWithHighByteZeroIsStillTwoBytes() throws {
        let packet: [UInt8] = [
            0x01,  // flags: UInt16 HR
            0x48,  // HR low byte
            0x00,  // HR high byte → 72 bpm
        ]
        #expect(try HeartRateMeasurement(parsing: packet) == HeartRateMeasurement(heartRate: 72))
    }

    @Test(arguments: [
        // flags bits 2…1 → contact status
        (UInt8(0b000), HeartRateMeasurement.SensorContact.notSupported),  // feature bit clear
        (0b010, .notSupported),  // "detected" without feature bit means nothing
        (0b100, .notDetected),  // feature supported, no contact
        (0b110, .detected),  // feature supported, contact
    ])
    func sensorContactCombinations(flags: UInt8, contact: HeartRateMeasurement.SensorContact) throws {
        let packet: [UInt8] = [
            flags,  // flags: only contact bits vary
            0x3C,  // HR = 60 bpm
        ]
        let measurement = try HeartRateMeasurement(parsing: packet)
        #expect(measurement.sensorContact == contact)
        #expect(measurement.heartRate == 60)
    }

    @Test func energyExpendedPresent() throws {
        let packet: [UInt8] = [
            0x08,  // flags: bit3 → EE present
            0x50,  // HR = 80 bpm
            0x34,  // EE low byte
            0x12,  // EE high byte → 0x1234 = 4660 kJ
        ]
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 80, energyExpended: 4660)
        )
    }

    @Test func oneRRInterval() throws {
        let packet: [UInt8] = [
            0x10,  // flags: bit4 → RR present
            0x3C,  // HR = 60 bpm
            0x00,  // RR₀ low
            0x04,  // RR₀ high → 1024 ticks = 1 s
        ]
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 60, rrIntervals: [1024])
        )
    }

    @Test func twoRRIntervals() throws {
        let packet: [UInt8] = [
            0x10,  // flags: RR present
            0x4B,  // HR = 75 bpm
            0x33, 0x03,  // RR₀ = 0x0333 = 819 ticks (older)
            0x4D, 0x03,  // RR₁ = 0x034D = 845 ticks (newer)
        ]
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 75, rrIntervals: [819, 845])
        )
    }

    @Test func threeRRIntervalsKeepPacketOrder() throws {
        let packet: [UInt8] = [
            0x10,  // flags: RR present
            0xA0,  // HR = 160 bpm
            0x80, 0x01,  // RR₀ = 0x0180 = 384 ticks
            0x7F, 0x01,  // RR₁ = 0x017F = 383 ticks
            0x90, 0x01,  // RR₂ = 0x0190 = 400 ticks
        ]
        #expect(try HeartRateMeasurement(parsing: packet).rrIntervals == [384, 383, 400])
    }

    @Test func uint16HeartRateWithEnergyExpendedAndRRIntervals() throws {
        let packet: [UInt8] = [
            0x1F,  // flags: UInt16 HR, contact supported + detected, EE, RR
            0xB4, 0x00,  // HR = 0x00B4 = 180 bpm
            0xFF, 0xFF,  // EE = 0xFFFF kJ (saturated counter)
            0x55, 0x01,  // RR₀ = 0x0155 = 341 ticks
            0x56, 0x01,  // RR₁ = 0x0156 = 342 ticks
        ]
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(
                    heartRate: 180, sensorContact: .detected, energyExpended: 0xFFFF,
                    rrIntervals: [341, 342])
        )
    }

    @Test func polarH10Notification() throws {
        let packet: [UInt8] = [
            0x10,  // flags: UInt8 HR, no contact bits, RR present (as H10 sends)
            0x40,  // HR = 64 bpm
            0xC0, 0x03,  // RR₀ = 0x03C0 = 960 ticks = 937.5 ms
            0xB2, 0x03,  // RR₁ = 0x03B2 = 946 ticks ≈ 923.8 ms
        ]
        let measurement = try HeartRateMeasurement(parsing: packet)
        #expect(measurement == HeartRateMeasurement(heartRate: 64, rrIntervals: [960, 946]))
        #expect(measurement.rrIntervals.map(RRTicks.milliseconds) == [937.5, 923.828125])
    }

    @Test func zeroRRIsCountedAndExcluded() throws {
        let packet: [UInt8] = [
            0x10,  // flags: RR present
            0x48,  // HR = 72 bpm
            0x00, 0x03,  // RR₀ = 768 ticks
            0x00, 0x00,  // RR₁ = 0: impossible beat
            0x10, 0x03,  // RR₂ = 784 ticks
            0x00, 0x00,  // RR₃ = 0 again
        ]
        let measurement = try HeartRateMeasurement(parsing: packet)
        #expect(measurement.rrIntervals == [768, 784])
        #expect(measurement.zeroRRCount == 2)
    }

    @Test func rrFlagWithoutRRBytesYieldsNoIntervals() throws {
        let packet: [UInt8] = [
            0x10,  // flags: RR present, but the field is empty
            0x48,  // HR = 72 bpm
        ]
        #expect(try HeartRateMeasurement(parsing: packet) == HeartRateMeasurement(heartRate: 72))
    }

    @Test func reservedFlagBitsAreIgnored() throws {
        let packet: [UInt8] = [
            0xF0,  // flags: bits 5–7 reserved (set), RR present
            0x48,  // HR = 72 bpm
            0x00, 0x04,  // RR₀ = 1024 ticks
        ]
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 72, rrIntervals: [1024])
        )
    }

    /// Decision: with the RR flag clear, bytes after the defined fields are
    /// ignored, never read as RR intervals.
    @Test func trailingBytesWithoutRRFlagAreIgnored() throws {
        let packet: [UInt8] = [
            0x08,  // flags: EE present, RR absent
            0x48,  // HR = 72 bpm
            0x0A, 0x00,  // EE = 10 kJ
            0x00, 0x04, 0x01,  // undefined trailing bytes
        ]
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 72, energyExpended: 10)
        )
    }

    @Test func arraySliceWithNonZeroStartIndex() throws {
        let stream: [UInt8] = [
            0xEE, 0xEE,  // unrelated bytes before the packet
            0x10,  // flags: RR present
            0x40,  // HR = 64 bpm
            0xC0, 0x03,  // RR₀ = 960 ticks
        ]
        let packet = stream[2...]
        #expect(packet.startIndex == 2)
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 64, rrIntervals: [960])
        )
    }

    @Test func dataSliceWithNonZeroStartIndex() throws {
        let stream = Data([
            0xEE, 0xEE, 0xEE,  // unrelated bytes before the packet
            0x19,  // flags: UInt16 HR, EE, RR
            0x2C, 0x01,  // HR = 300 bpm
            0x02, 0x00,  // EE = 2 kJ
            0xCD, 0x00,  // RR₀ = 205 ticks
        ])
        let packet = stream[3...]
        #expect(packet.startIndex == 3)
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 300, energyExpended: 2, rrIntervals: [205])
        )
    }

    @Test func collectionWithNonContiguousIndices() throws {
        // A lazy filter skips base indices, so offsets can't be derived from
        // index arithmetic; parsing must still walk the bytes in order.
        let interleaved: [UInt8] = [0xAA, 0x10, 0xAA, 0x3C, 0xAA, 0x00, 0xAA, 0x04, 0xAA]
        let packet = interleaved.lazy.filter { $0 != 0xAA }  // 10 3C 00 04: RR flag, 60 bpm, RR 1024
        #expect(packet.startIndex == 1)
        #expect(
            try HeartRateMeasurement(parsing: packet)
                == HeartRateMeasurement(heartRate: 60, rrIntervals: [1024])
        )
    }
}
