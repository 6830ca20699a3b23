import HeartRateProtocol

/// A notification that did not parse, with why.
public struct MalformedPacket: Equatable, Sendable {
    public var time: Double
    public var bytes: [UInt8]
    public var error: HeartRateMeasurementError
    /// Malformed packets so far in the session, this one included.
    public var count: Int
}
