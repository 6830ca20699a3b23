/// Byte 0 of Heart Rate Measurement (0x2A37): which fields follow and how.
///
/// Bits 5–7 are reserved for future use; they're kept in `rawValue` but
/// nothing reads them, as the spec requires of a receiver.
struct HeartRateMeasurementFlags: OptionSet {
    let rawValue: UInt8

    /// Heart rate is a UInt16 instead of a UInt8.
    static let heartRateIsUInt16 = Self(rawValue: 1 << 0)
    /// Meaningful only together with `sensorContactSupported`.
    static let sensorContactDetected = Self(rawValue: 1 << 1)
    static let sensorContactSupported = Self(rawValue: 1 << 2)
    static let energyExpendedPresent = Self(rawValue: 1 << 3)
    static let rrIntervalsPresent = Self(rawValue: 1 << 4)
}

extension HeartRateMeasurementFlags {
    var sensorContact: HeartRateMeasurement.SensorContact {
        // Bit 1 alone is "not supported" too: without the feature bit the
        // contact bit carries no information.
        guard contains(.sensorContactSupported) else { return .notSupported }
        return contains(.sensorContactDetected) ? .detected : .notDetected
    }

    init(sensorContact: HeartRateMeasurement.SensorContact) {
        switch sensorContact {
        case .notSupported: self = []
        case .notDetected: self = .sensorContactSupported
        case .detected: self = [.sensorContactSupported, .sensorContactDetected]
        }
    }
}
