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

/// Whole-file input from a path or `-` (standard input).
public enum InputFile {
    public static func read(_ path: String) throws(FileOpenError) -> [UInt8] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileOpenError(path: path, .current) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileOpenError(path: path, .current)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
