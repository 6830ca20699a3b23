import Exports
import Foundation
import TestSupport
import Testing

/// Stored-block gzip as CPython's gzip module (zlib) reads it: the same bytes back, the same
/// CRC-32 as zlib's, across the 65,535-byte block limit and for nothing at all.
@Suite struct StoredGzipTests {
    @Test(arguments: [0, 1, 65_535, 65_536, 200_001])
    func zlibReadsItBack(length: Int) throws {
        var generator = UInt32(length + 7)
        let bytes = (0..<length).map { _ in
            generator = generator &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: generator >> 24)
        }
        let read = try ReferenceReader.read("gzip", try ExportFixture.write(StoredGzip.encode(bytes), name: "data.gz"))
        #expect(read["length"] as? Int == length)
        #expect((read["crc32"] as? NSNumber)?.uint32Value == StoredGzip.crc32(bytes))
        #expect(read["sha_like"] as? [Int] == bytes.prefix(16).map(Int.init))
    }

    /// The check value of CRC-32 (the CRC of "123456789"), as the catalogue of parametrised CRC
    /// algorithms gives it.
    @Test func checkValue() {
        #expect(StoredGzip.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}
