import Glibc

/// Buffered output to a file descriptor without Foundation, so 100,000 rows stay cheap. The
/// first failed write is kept in `failure` (later output is dropped) for the caller to report.
struct FileStream {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The errno of the first write (or sync) that failed.
    private(set) var failure: Int32?

    static var standardOutput: FileStream { FileStream(descriptor: STDOUT_FILENO) }

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        if failure == nil { failure = buffer.withUnsafeBytes { Self.writeAll($0, to: descriptor) } }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, optionally syncs to the disk, and closes the descriptor.
    mutating func close(sync: Bool = false) {
        flush()
        if sync, failure == nil { failure = Self.sync(descriptor) }
        Glibc.close(descriptor)
    }

    /// fsync; the errno on failure. A pipe or terminal cannot be synced (EINVAL): nothing is lost
    /// there, so that is no failure.
    static func sync(_ descriptor: Int32) -> Int32? {
        guard fsync(descriptor) != 0, errno != EINVAL, errno != EROFS else { return nil }
        return errno
    }

    /// Writes all of `bytes`, resuming after interruptions and short writes; the errno on failure.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// One message on standard error, written at once; whatever it quotes from outside is shown,
    /// not obeyed.
    static func printError(_ text: String) {
        var stream = FileStream(descriptor: STDERR_FILENO)
        let safe = TerminalText.escaped(text)
        stream.write(safe.hasSuffix("\n") ? safe : safe + "\n")
        stream.flush()
    }
}
