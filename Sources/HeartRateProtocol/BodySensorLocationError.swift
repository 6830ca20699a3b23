/// Why bytes are not a Body Sensor Location (0x2A38).
public enum BodySensorLocationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The read returned no bytes.
    case emptyValue

    /// The byte is in the range 7...255 that the spec reserves.
    case reservedValue(UInt8)

    public var description: String {
        switch self {
        case .emptyValue:
            "Body Sensor Location is empty: expected 1 byte"
        case .reservedValue(let value):
            "Body Sensor Location \(value) is reserved: known values are 0...6"
        }
    }
}
