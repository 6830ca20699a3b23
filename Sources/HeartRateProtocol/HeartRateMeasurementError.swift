/// Why bytes are not a Heart Rate Measurement (0x2A37).
///
/// Offsets count from the flags byte (offset 0), whatever the index type of
/// the collection that was parsed.
public enum HeartRateMeasurementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The notification carried no bytes, not even flags.
    case emptyPacket

    /// The heart-rate value at offset 1 needs `needed` bytes (1 or 2, per flag
    /// bit 0) but only `available` follow the flags.
    case truncatedHeartRate(needed: Int, available: Int)

    /// Flag bit 3 announces a 2-byte Energy Expended field at `offset`, but
    /// only `available` bytes are left.
    case truncatedEnergyExpended(offset: Int, available: Int)

    /// Flag bit 4 announces RR intervals from `offset` on, but the `byteCount`
    /// bytes there are odd, so they can't all be 2-byte values.
    case oddRRIntervalByteCount(offset: Int, byteCount: Int)

    public var description: String {
        switch self {
        case .emptyPacket:
            "Heart Rate Measurement is empty: expected at least a flags byte"
        case .truncatedHeartRate(let needed, let available):
            "Heart Rate Measurement truncated: heart-rate value at offset 1 needs \(bytes(needed)), has \(available)"
        case .truncatedEnergyExpended(let offset, let available):
            "Heart Rate Measurement truncated: energy expended at offset \(offset) needs 2 bytes, has \(available)"
        case .oddRRIntervalByteCount(let offset, let byteCount):
            "Heart Rate Measurement malformed: RR-interval field at offset \(offset) has \(bytes(byteCount)), "
                + "not a multiple of 2"
        }
    }
}

private func bytes(_ count: Int) -> String {
    count == 1 ? "1 byte" : "\(count) bytes"
}
