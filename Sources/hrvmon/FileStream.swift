import Glibc

/// Buffered output to a file descriptor without Foundation, so 100,000 rows stay cheap.
struct FileStream {
    let descriptor: Int32
    private var buffer: [UInt8] = []

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
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, optionally syncs to the disk, and closes the descriptor.
    mutating func close(sync: Bool = false) {
        flush()
        if sync { fsync(descriptor) }
        Glibc.close(descriptor)
    }

    /// One message to stderr, written at once.
    static func printError(_ text: String) {
        var stream = FileStream(descriptor: STDERR_FILENO)
        stream.write(text.hasSuffix("\n") ? text : text + "\n")
        stream.flush()
    }
}
