import Foundation
import Glibc
import Platform
import Testing

@Suite struct AtomicFileTests {
    private func scratch() -> String {
        let path = NSTemporaryDirectory() + "atomic-\(UUID().uuidString)"
        #expect(FileSystem.makeDirectory(path, permissions: 0o700) == nil)
        return path
    }

    @Test func aRegularFileIsReplacedWhole() throws {
        let path = scratch() + "/report.html"
        #expect(AtomicFile.write(Array("old and longer".utf8), to: path) == nil)
        #expect(AtomicFile.write(Array("new".utf8), to: path) == nil)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(FileSystem.status(path)?.permissions == 0o600)
    }

    /// `report -o /dev/null` as root renamed a file over the device. A FIFO stands in for a
    /// device here: it must still be one afterwards, and have received the bytes.
    @Test func aPathThatIsNoRegularFileIsWrittenAsItIs() throws {
        let path = scratch() + "/pipe"
        #expect(mkfifo(path, 0o600) == 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(AtomicFile.write(Array("to the reader".utf8), to: path) == nil)
        #expect(FileSystem.status(path)?.kind == .other)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "to the reader")
    }
}
