/// Heart Rate Measurement packets laid out by hand from the specification (flags, HR, energy
/// expended, RR values little-endian in 1/1024 s), independent of the parser under test.
public enum Packet {
    public static func measurement(
        heartRate: Int = 60, sixteenBit: Bool = false, contact: Bool? = true, energy: Int? = nil, rr: [Int]
    ) -> [UInt8] {
        var flags: UInt8 = sixteenBit ? 0x01 : 0
        if let contact { flags |= contact ? 0x06 : 0x04 }
        if energy != nil { flags |= 0x08 }
        if !rr.isEmpty { flags |= 0x10 }
        var bytes = [flags]
        bytes += sixteenBit ? [UInt8(heartRate & 0xFF), UInt8(heartRate >> 8)] : [UInt8(heartRate)]
        if let energy { bytes += [UInt8(energy & 0xFF), UInt8(energy >> 8)] }
        for value in rr { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        return bytes
    }

    /// `ticks` packed one to three RR a notification (by position: 1, 2, 3, 1, …), as straps send
    /// them; the HR field `heartRate`, or the rate of the packet's first RR.
    public static func packed(_ ticks: ArraySlice<Int>, heartRate: Int? = nil) -> [[UInt8]] {
        var packets: [[UInt8]] = []
        var index = ticks.startIndex
        while index < ticks.endIndex {
            let count = min(1 + index % 3, ticks.endIndex - index)
            let rr = Array(ticks[index..<index + count])
            packets.append(measurement(heartRate: heartRate ?? 60 * 1024 / rr[0], rr: rr))
            index += count
        }
        return packets
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "-" : bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
