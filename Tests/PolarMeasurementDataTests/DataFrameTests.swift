import PolarMeasurementData
import Testing

/// Data frames against polar-ble-sdk's tests (EcgDataTest, AccDataTest; shared/POLAR-PMD.md).
@Suite struct DataFrameTests {
    static let hex = ControlPointTests.hex

    /// EcgDataTest "process raw ecg data type 0": `02 80 FF 02 80 00` is -32766 and 32770 µV, the
    /// last at 2000000000 ns.
    @Test func ecgFrame() throws {
        let frame = try PMDFrame(parsing: Self.hex("00 00 94 35 77 00 00 00 00 00 02 80 FF 02 80 00"))
        #expect(frame.measurementType == .ecg && frame.timestamp == 2_000_000_000 && !frame.isCompressed)
        #expect(frame.samples == .ecg([-32766, 32770]))
    }

    /// AccDataTest "process acc raw data frame type 1": the first samples are (-9, -1, 999) and
    /// (-8, -2, 997) mG; the frame's 36 samples (216 bytes, what an MTU of 232 holds) end at 2000000000 ns.
    @Test func accFrameOfInt16Samples() throws {
        let content = "F7 FF FF FF E7 03 F8 FF FE FF E5 03 F9 FF FF FF E5 03 FA FF FF FF E6 03 FA FF FE FF E6 03 F9 FF FF FF E5 03 F8 FF FF FF E6 03 F8 FF FE FF E6 03 FA FF FF FF E5 03 FA FF FF FF E7 03 FA FF FF FF E5 03 F8 FF FF FF E6 03 F7 FF FF FF E6 03 F8 FF FE FF E6 03 F9 FF FE FF E7 03 F9 FF 00 00 E6 03 F9 FF FF FF E6 03 F7 FF FE FF E5 03 F9 FF FF FF E5 03 F9 FF FF FF E5 03 FA FF 00 00 E6 03 F9 FF FE FF E6 03 F8 FF FF FF E6 03 F8 FF FF FF E5 03 F9 FF FF FF E6 03 F9 FF FF FF E5 03 FA FF FF FF E6 03 F9 FF FF FF E5 03 F9 FF FF FF E5 03 F8 FF FE FF E6 03 F9 FF FF FF E6 03 F9 FF FF FF E6 03 F9 FF 00 00 E5 03 F9 FF FE FF E6 03 F8 FF FE FF E6 03 F7 FF FE FF E6 03"
        let frame = try PMDFrame(parsing: Self.hex("02 00 94 35 77 00 00 00 00 01 " + content))
        guard case .acceleration(let samples) = frame.samples else { Issue.record("not ACC"); return }
        #expect(samples.count == 36)
        #expect(samples[0] == Acceleration(x: -9, y: -1, z: 999))
        #expect(samples[1] == Acceleration(x: -8, y: -2, z: 997))
        #expect(frame.timestamp == 2_000_000_000)
    }

    /// AccDataTest "process acc compressed data type 1": reference (-15, 20, 1008), one 6-bit
    /// delta sample (-5, -3, 0).
    @Test func deltaCompressedAccFrame() throws {
        let frame = try PMDFrame(parsing: Self.hex("02 65 00 00 00 00 00 00 00 81 F1 FF 14 00 F0 03 06 01 7B 0F 08"))
        #expect(frame.isCompressed && frame.frameType == 1)
        #expect(frame.samples == .acceleration([Acceleration(x: -15, y: 20, z: 1008), Acceleration(x: -20, y: 17, z: 1008)]))
    }

    /// AccDataTest "process acc compressed data type 0": reference (1905, 27376, -29282) and 56
    /// samples of 10-bit deltas, the first (+190, -105, -85); in counts (the test scales them by
    /// the factor 2.44e-4 G afterwards).
    @Test func deltaCompressedAccFrameOfTenBitDeltas() throws {
        let content = "71 07 F0 6A 9E 8D 0A 38 BE 5C BE BA 2F 96 B3 EE 4B E5 AD FB 42 B9 EB BE 4C FE BA 2F 92 BF EE 4B E4 B1 FB 12 B9 EC BD 3C 3E BB 2F 8F D3 DE 4B E3 B5 F7 D2 B8 ED BD 30 7E 7B 2F 8B E3 CE 8B E2 BA F7 A2 B8 EE BC 20 BE 7B 2F 88 F3 CE CB E1 BD EF 52 F8 EF BC 18 FE 3B 2F 84 03 BF CB E0 C2 EF 32 B8 F0 BB 04 4E BC 2E 81 13 AF 0B E0 C6 EF F2 F7 F1 B9 FC 7D BC 2E 7D 27 9F 4B DF CA EB C2 F7 F2 B8 EC CD 7C 2E 7B 37 8F 4B DE CE E3 92 F7 F3 B8 E0 0D FD 2D 77 4B 7F CB DD D2 DF 62 37 F5 B7 D4 4D BD 2D 74 5B 6F CB DC D7 D7 32 37 F6 B5 C8 8D 7D 2D 71 6B 4F 4B DC DC D3 F2 36 F7 B4 BC DD FD 2C 6F 7B 3F 4B DB E0 CF D2 36 F8 B2 B0 2D BE 2C 6C 8F 1F CB DA E3 C7 A2 76 F9"
        let frame = try PMDFrame(parsing: Self.hex("02 00 94 35 77 00 00 00 00 80 " + content))
        guard case .acceleration(let samples) = frame.samples else { Issue.record("not ACC"); return }
        #expect(samples.count == 57)
        #expect(samples[0] == Acceleration(x: 1905, y: 27376, z: -29282))
        #expect(samples[1] == Acceleration(x: 1905 + 190, y: 27376 - 105, z: -29282 - 85))
        // Every sample within the 8 G range once scaled, as the SDK's test checks.
        #expect(samples.allSatisfy { abs(Float($0.x) * 2.44e-4) <= 8 && abs(Float($0.y) * 2.44e-4) <= 8 && abs(Float($0.z) * 2.44e-4) <= 8 })
    }

    /// The frame's timestamp is its last sample's; earlier samples are spaced by the time since
    /// the previous frame over the count, or by the nominal rate for the first frame and after a
    /// jump of the strap's clock (polar-ble-sdk #387).
    @Test func sampleTimes() {
        var clock = PMDSampleClock()
        let samples = PMDFrame.Samples.ecg([1, 2, 3, 4])
        let first = PMDFrame(measurementType: .ecg, timestamp: 1_000_000_000, frameType: 0, samples: samples)
        #expect(clock.sampleTimes(of: first, nominalRate: 100) == [970_000_000, 980_000_000, 990_000_000, 1_000_000_000])
        let second = PMDFrame(measurementType: .ecg, timestamp: 1_040_400_000, frameType: 0, samples: samples)
        #expect(clock.sampleTimes(of: second, nominalRate: 100) == [1_010_100_000, 1_020_200_000, 1_030_300_000, 1_040_400_000])
        let jumped = PMDFrame(measurementType: .ecg, timestamp: 9_000_000_000, frameType: 0, samples: samples)
        #expect(clock.sampleTimes(of: jumped, nominalRate: 100).first == 8_970_000_000)
        let early = PMDFrame(measurementType: .ecg, timestamp: 10, frameType: 0, samples: samples)
        #expect(clock.sampleTimes(of: early, nominalRate: 100) == [0, 0, 0, 10])
    }

    @Test func malformedFramesAreRefusedWithTheirOffset() {
        #expect(throws: PMDParseError(.truncated("the timestamp"), at: 5)) { try PMDFrame(parsing: Self.hex("02 00 00 00 00")) }
        #expect(throws: PMDParseError(.partialSample(sampleBytes: 6, remaining: 2), at: 16)) {
            try PMDFrame(parsing: Self.hex("02 00 00 00 00 00 00 00 00 01 F7 FF FF FF E7 03 F8 FF"))
        }
        #expect(throws: PMDParseError(.noSamples, at: 10)) { try PMDFrame(parsing: Self.hex("00 00 00 00 00 00 00 00 00 00")) }
        #expect(throws: PMDParseError(.unsupportedMeasurement(0x3F), at: 0)) { try PMDFrame(parsing: Self.hex("FF 00 00 00 00 00 00 00 00 00")) }
        #expect(throws: PMDParseError(.unsupportedFrameType(measurement: 0, frameType: 0x83), at: 9)) {
            try PMDFrame(parsing: Self.hex("00 00 00 00 00 00 00 00 00 83 00"))
        }
        #expect(throws: PMDParseError(.deltaWidth(40), at: 16)) {
            try PMDFrame(parsing: Self.hex("02 00 00 00 00 00 00 00 00 81 F1 FF 14 00 F0 03 28 01"))
        }
        #expect(throws: PMDParseError(.truncated("the delta block's 3 bytes"), at: 20)) {
            try PMDFrame(parsing: Self.hex("02 00 00 00 00 00 00 00 00 81 F1 FF 14 00 F0 03 06 01 7B 0F"))
        }
    }
}
