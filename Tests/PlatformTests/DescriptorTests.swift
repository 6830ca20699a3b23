import Foundation
import Platform
import Testing

@Suite struct DescriptorTests {
    @Test func readsGiveBytesThenEndOfFile() throws {
        let pipe = Pipe()
        let reader = pipe.fileHandleForReading.fileDescriptor
        try pipe.fileHandleForWriting.write(contentsOf: Data([1, 2, 3]))
        #expect(Descriptor.read(reader, upTo: 2) == .bytes([1, 2]))
        #expect(Descriptor.read(reader, upTo: 2) == .bytes([3]))
        Descriptor.setNonBlocking(reader)
        #expect(Descriptor.read(reader, upTo: 2) == .notNow, "an empty non-blocking pipe")
        try pipe.fileHandleForWriting.close()
        #expect(Descriptor.read(reader, upTo: 2) == .endOfFile)
        #expect(Descriptor.read(-1, upTo: 2) == .failed(Errno(code: EBADF)))
    }

    @Test func controlCharactersFromOutsideAreShownNotObeyed() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb\u{07}\tc\n") == "a\\x1B[2Jb\\x07\tc\n")
        #expect(TerminalText.escaped("\u{9B}31m") == "\\u{9B}31m")
    }
}
