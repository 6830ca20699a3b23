/// Reads little-endian fields front to back from any byte collection,
/// reporting exhaustion as `nil` instead of trapping.
///
/// Tracks the offset from the first byte, not the collection's index, so that
/// error positions mean the same thing for an `Array`, an `ArraySlice` or a
/// `Data` slice whose `startIndex` is not zero.
struct LittleEndianReader<Bytes: Collection<UInt8>> {
    private let bytes: Bytes
    private var index: Bytes.Index

    /// Bytes consumed so far: the packet offset of the next field.
    private(set) var offset = 0

    /// Bytes not yet consumed.
    private(set) var remainingCount: Int

    init(_ bytes: Bytes) {
        self.bytes = bytes
        index = bytes.startIndex
        remainingCount = bytes.count
    }

    mutating func readUInt8() -> UInt8? {
        guard remainingCount >= 1 else { return nil }
        let byte = bytes[index]
        bytes.formIndex(after: &index)
        offset += 1
        remainingCount -= 1
        return byte
    }

    mutating func readUInt16() -> UInt16? {
        // Check first so a lone trailing byte is left unconsumed.
        guard remainingCount >= 2, let low = readUInt8(), let high = readUInt8() else {
            return nil
        }
        return UInt16(high) << 8 | UInt16(low)
    }
}
