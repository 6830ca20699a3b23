/// Where the strap is worn: the Body Sensor Location characteristic (0x2A38).
public enum BodySensorLocation: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case other = 0
    case chest
    case wrist
    case finger
    case hand
    case earLobe
    case foot

    /// Parses the one-byte characteristic value.
    ///
    /// Only the first byte is read; any further bytes are ignored. The spec
    /// defines a single UInt8, and as for Heart Rate Measurement, octets a
    /// receiver doesn't know are treated as reserved for future use rather
    /// than as an error. Values 7...255 are reserved and rejected: they carry
    /// no location this version of the spec can name.
    public init(parsing bytes: some Collection<UInt8>) throws(BodySensorLocationError) {
        guard let value = bytes.first else { throw .emptyValue }
        guard let location = BodySensorLocation(rawValue: value) else {
            throw .reservedValue(value)
        }
        self = location
    }

    public var description: String {
        switch self {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear lobe"
        case .foot: "foot"
        }
    }
}
