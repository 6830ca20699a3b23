import HeartRateProtocol

extension HeartRateMeasurement.SensorContact {
    /// The spelling in session files and JSON Lines.
    public var name: String {
        switch self {
        case .notSupported: "unsupported"
        case .notDetected: "not_detected"
        case .detected: "detected"
        }
    }

    public init?(name: String) {
        guard let contact = [Self.notSupported, .notDetected, .detected].first(where: { $0.name == name }) else { return nil }
        self = contact
    }
}
