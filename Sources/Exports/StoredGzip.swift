/// A gzip member (RFC 1952) whose deflate stream (RFC 1951) is made of stored blocks: valid gzip
/// that every reader opens, but not compressed. hrvmon links no zlib; a 4 Hz physio table is
/// about 15 bytes a sample (5 MB a day), and `gzip -9` recompresses it when size matters.
public enum StoredGzip {
    public static func encode(_ bytes: [UInt8]) -> [UInt8] {
        // ID1 ID2, CM deflate, no flags, MTIME 0 (the same bytes on every run), XFL 0, OS 3 (Unix).
        var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
        output.reserveCapacity(bytes.count + bytes.count / 65_535 * 5 + 23)
        var start = 0
        repeat {
            let end = min(bytes.count, start + 65_535)
            let length = end - start
            // BFINAL on the last block, BTYPE 00 (stored); then LEN and its complement, little-endian.
            output.append(end == bytes.count ? 1 : 0)
            output += littleEndian(UInt32(length), bytes: 2) + littleEndian(UInt32(~UInt16(length)), bytes: 2)
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        return output + littleEndian(crc32(bytes), bytes: 4) + littleEndian(UInt32(truncatingIfNeeded: bytes.count), bytes: 4)
    }

    /// CRC-32 of ISO 3309 / ITU-T V.42, as gzip and zlib's `crc32` compute it.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func littleEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
