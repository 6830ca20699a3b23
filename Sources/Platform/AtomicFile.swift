import Glibc

/// A file replaced whole or not at all: written to a temporary file beside it (created 0600 and
/// exclusively by mkstemp), synced, then renamed over the path. A crash or a full disk never
/// leaves half a file or destroys the previous one. A path that is not a regular file (a device
/// such as /dev/null, a FIFO) is written to as it is: renaming over it would replace the device
/// with a file.
public enum AtomicFile {
    /// The error of the step that failed.
    public static func write(_ bytes: [UInt8], to path: String) -> Errno? {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG { return writeInPlace(bytes, to: path) }
        return create(path) { descriptor in bytes.withUnsafeBytes { FileStream.writeAll($0, to: descriptor) } }
    }

    /// A regular file at `path` whose bytes `fill` writes to the descriptor it is given (so they
    /// need not be in memory at once), made as `write` makes one; `fill` returns its failure.
    public static func create(_ path: String, fill: (Int32) -> Errno?) -> Errno? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((directory + "." + name + ".XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return .current }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = fill(descriptor) ?? FileStream.sync(descriptor)
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = .current }
        if failure != nil { unlink(temporary) }
        return failure
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String) -> Errno? {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { return .current }
        defer { close(descriptor) }
        return bytes.withUnsafeBytes { FileStream.writeAll($0, to: descriptor) }
    }
}
