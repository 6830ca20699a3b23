import Glibc

/// Buffered output to a file descriptor without Foundation, so 100,000 rows stay cheap. The
/// first failed write is kept in `failure` (later output is dropped) for the caller to report.
public struct FileStream {
    public let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The first write (or sync) that failed.
    public private(set) var failure: Errno?

    public static var standardOutput: FileStream { FileStream(descriptor: STDOUT_FILENO) }
    public static var standardError: FileStream { FileStream(descriptor: STDERR_FILENO) }

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    public mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public mutating func flush() {
        if failure == nil { failure = buffer.withUnsafeBytes { Self.writeAll($0, to: descriptor) } }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, optionally syncs to the disk, and closes the descriptor.
    public mutating func close(sync: Bool = false) {
        flush()
        if sync, failure == nil { failure = Self.sync(descriptor) }
        Glibc.close(descriptor)
    }

    /// fsync; the error on failure. A pipe or terminal cannot be synced (EINVAL): nothing is lost
    /// there, so that is no failure.
    public static func sync(_ descriptor: Int32) -> Errno? {
        guard fsync(descriptor) != 0, errno != EINVAL, errno != EROFS else { return nil }
        return .current
    }

    /// Writes all of `bytes`, resuming after interruptions and short writes; the error on failure.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Errno? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return .current
            }
            offset += written
        }
        return nil
    }

    /// One message on standard error, written at once; whatever it quotes from outside is shown,
    /// not obeyed.
    public static func printError(_ text: String) {
        var stream = standardError
        let safe = TerminalText.escaped(text)
        stream.write(safe.hasSuffix("\n") ? safe : safe + "\n")
        stream.flush()
    }
}
