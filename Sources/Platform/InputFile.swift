import Glibc

/// A file that could not be opened, read or created: which, what was tried, and the system's reason.
public struct FileOpenError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var action: String

    public init(path: String, reason: String, action: String = "read") {
        self.path = path
        self.reason = reason
        self.action = action
    }

    init(path: String, _ errno: Errno, action: String = "read") {
        self.init(path: path, reason: errno.description, action: action)
    }

    public var description: String { "\(path): cannot \(action): \(reason)" }
}

/// Input from a path or `-` (standard input), read whole or piece by piece.
public final class InputFile {
    public let path: String
    /// Bytes in the file when it is a regular file (not a pipe or terminal).
    public let size: Int?
    private let descriptor: Int32
    /// Bytes handed out so far.
    public private(set) var position = 0
    /// Bytes `peek` read that `read` has not handed out yet.
    private var peeked: [UInt8] = []

    public init(opening path: String) throws(FileOpenError) {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileOpenError(path: path, .current) }
        var info = stat()
        self.path = path
        self.descriptor = descriptor
        size = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
    }

    deinit {
        if descriptor != STDIN_FILENO { close(descriptor) }
    }

    /// The first bytes of what `read` will hand out next (up to `count`), without consuming them:
    /// to tell a format by its start, also on a pipe.
    public func peek(_ count: Int) throws(FileOpenError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while peeked.count < count {
            let got = try readDescriptor(into: &buffer, upTo: count - peeked.count)
            guard got > 0 else { break }
            peeked += buffer[..<got]
        }
        return peeked
    }

    /// The next piece of up to `buffer.count` bytes into `buffer`; its length, 0 at the end.
    public func read(into buffer: inout [UInt8]) throws(FileOpenError) -> Int {
        if !peeked.isEmpty {
            let count = min(peeked.count, buffer.count)
            buffer.replaceSubrange(0..<count, with: peeked[..<count])
            peeked.removeFirst(count)
            position += count
            return count
        }
        let count = try readDescriptor(into: &buffer, upTo: buffer.count)
        position += count
        return count
    }

    private func readDescriptor(into buffer: inout [UInt8], upTo limit: Int) throws(FileOpenError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min(limit, $0.count)) }
            if count >= 0 { return count }
            guard errno == EINTR else { throw FileOpenError(path: path, .current) }
        }
    }

    /// Hands the rest of the input to `body` in pieces of up to `size` bytes, through one buffer:
    /// for a reader that consumes a stream, so the input is never in memory whole.
    public func forEachPiece(size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var piece = [UInt8](repeating: 0, count: size)
        while case let count = try read(into: &piece), count > 0 {
            try piece.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// The rest of the input.
    public func readToEnd() throws(FileOpenError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while case let count = try read(into: &chunk), count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
        return bytes
    }

    /// The first and the last `count` bytes of a file (overlapping in one shorter than twice
    /// that), read with pread(2) without moving the position: a fingerprint of its contents that
    /// costs two reads whatever its size.
    public func ends(_ count: Int) throws(FileOpenError) -> [UInt8] {
        let length = size ?? 0
        var bytes: [UInt8] = []
        for offset in [0, max(0, length - count)] {
            var buffer = [UInt8](repeating: 0, count: min(count, length - offset))
            var done = 0
            while done < buffer.count {
                let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
                if got == 0 { break }
                if got < 0 {
                    guard errno == EINTR else { throw FileOpenError(path: path, .current) }
                    continue
                }
                done += got
            }
            bytes += buffer[..<done]
        }
        return bytes
    }

    /// The whole input at once.
    public static func read(_ path: String) throws(FileOpenError) -> [UInt8] {
        try InputFile(opening: path).readToEnd()
    }
}
