import HeartRateProtocol
import Testing

@Test(arguments: [
    (UInt8(0), BodySensorLocation.other, "other"),
    (1, .chest, "chest"),
    (2, .wrist, "wrist"),
    (3, .finger, "finger"),
    (4, .hand, "hand"),
    (5, .earLobe, "ear lobe"),
    (6, .foot, "foot"),
])
func bodySensorLocationParsesEverySpecValue(byte: UInt8, location: BodySensorLocation, name: String) throws {
    #expect(try BodySensorLocation(parsing: [byte]) == location)
    #expect(location.rawValue == byte)
    #expect(location.description == name)
}

@Test func bodySensorLocationHasExactlySevenCases() {
    #expect(BodySensorLocation.allCases.map(\.rawValue) == Array(0...6))
}

@Test func bodySensorLocationRejectsEveryReservedValue() {
    for value in UInt8(7)...UInt8.max {
        #expect(throws: BodySensorLocationError.reservedValue(value)) {
            try BodySensorLocation(parsing: [value])
        }
    }
}

@Test func bodySensorLocationRejectsEmptyValue() {
    #expect(throws: BodySensorLocationError.emptyValue) {
        try BodySensorLocation(parsing: [UInt8]())
    }
}

/// Decision: only the first byte is meaningful; more are ignored, even reserved ones.
@Test func bodySensorLocationIgnoresBytesAfterTheFirst() throws {
    #expect(try BodySensorLocation(parsing: [0x01, 0xFF]) == .chest)
    #expect(try BodySensorLocation(parsing: [0x06, 0x00, 0x07]) == .foot)
    #expect(throws: BodySensorLocationError.reservedValue(0x07)) {
        try BodySensorLocation(parsing: [0x07, 0x01])
    }
}

@Test func bodySensorLocationReadsFirstByteOfSliceNotOfBase() throws {
    let base: [UInt8] = [0xFF, 0x02]
    #expect(try BodySensorLocation(parsing: base.dropFirst()) == .wrist)
    #expect(throws: BodySensorLocationError.emptyValue) {
        try BodySensorLocation(parsing: base.dropFirst(2))
    }
}

@Test func bodySensorLocationErrorDescriptionsNameTheProblem() {
    #expect(BodySensorLocationError.emptyValue.description == "Body Sensor Location is empty: expected 1 byte")
    #expect(
        BodySensorLocationError.reservedValue(200).description
            == "Body Sensor Location 200 is reserved: known values are 0...6"
    )
}
