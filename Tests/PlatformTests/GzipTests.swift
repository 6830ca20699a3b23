import Foundation
import Platform
import Testing

/// gzip through zlib: a file compressed whole (gzip itself reads it), read back a piece at a
/// time, and damaged or cut-short data said as an error naming the file, never a crash.
@Suite struct GzipTests {
    private func scratch() -> String {
        let path = NSTemporaryDirectory() + "gzip-\(UUID().uuidString)"
        #expect(FileSystem.makeDirectory(path, permissions: 0o700) == nil)
        return path
    }

    /// Lines enough for several pieces each way (more than the 1 MiB read and 256 KiB written at a time).
    private let content = Array((0..<60_000).map { "{\"type\":\"packet\",\"t\":\($0),\"rr_1024\":[\($0 % 997),\($0 % 13)]}\n" }.joined().utf8)

    private func decompressed(_ path: String, size: Int = 4096) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try InputFile(opening: path).forEachContentPiece(size: size) { bytes += $0 }
        return bytes
    }

    @Test func aFileCompressedIsReadBackWhole() throws {
        let directory = scratch()
        let source = directory + "/s.jsonl"
        #expect(AtomicFile.write(content, to: source) == nil)
        #expect(Gzip.compress(source, to: source + ".gz") == nil)
        #expect(FileSystem.exists(source), "the source is left to the caller")
        #expect(FileSystem.status(source + ".gz")?.permissions == 0o600)
        let size = try #require(FileSystem.status(source + ".gz")?.size)
        #expect(size < content.count / 5)
        #expect(try decompressed(source + ".gz") == content)
        #expect(try decompressed(source + ".gz", size: 1 << 20) == content)
        // gzip itself reads it.
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-t", source + ".gz"]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        // A plain file is read as it is.
        #expect(try decompressed(source) == content)
        #expect(try InputFile.readContent(source + ".gz") == content)
    }

    /// Members one after another (`cat a.gz b.gz`) read as one content, as zcat reads them.
    @Test func concatenatedMembersReadAsOne() throws {
        let directory = scratch()
        #expect(Gzip.write(Array("first\n".utf8), to: directory + "/a.gz") == nil)
        #expect(Gzip.write(Array("second\n".utf8), to: directory + "/b.gz") == nil)
        let both = try InputFile.read(directory + "/a.gz") + InputFile.read(directory + "/b.gz")
        #expect(AtomicFile.write(both, to: directory + "/ab.gz") == nil)
        #expect(try decompressed(directory + "/ab.gz") == Array("first\nsecond\n".utf8))
    }

    @Test func damagedAndCutShortDataAreErrors() throws {
        let directory = scratch()
        let path = directory + "/s.gz"
        #expect(Gzip.write(content, to: path) == nil)
        let whole = try InputFile.read(path)
        var damaged = whole
        for index in stride(from: 200, to: 400, by: 7) { damaged[index] ^= 0x5A }
        #expect(AtomicFile.write(damaged, to: path) == nil)
        #expect { try decompressed(path) } throws: { "\($0)".hasPrefix(path + ": cannot decompress: damaged gzip data") }
        #expect(AtomicFile.write(Array(whole.prefix(whole.count / 2)), to: path) == nil)
        #expect { try decompressed(path) } throws: { "\($0)" == path + ": cannot decompress: its gzip data is cut short (the file is incomplete)" }
        #expect(AtomicFile.write([0x1F, 0x8B], to: path) == nil)
        #expect { try decompressed(path) } throws: { "\($0)".hasPrefix(path + ": cannot decompress:") }
    }
}
