import Glibc

/// Writes a finished report: to standard output for `-`; otherwise whole or not at all (a
/// temporary file in the same directory, synced, then renamed over the path, so an interrupted
/// run never leaves half a page or destroys the previous one), 0600 because it holds health data.
enum ReportFile {
    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): cannot write the report: \(reason)" }
    }

    static func write(_ text: String, to path: String) throws(Failure) {
        let bytes = Array(text.utf8)
        guard path != "-" else { return try writeAll(bytes, to: STDOUT_FILENO, path: "standard output") }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array((directory + "." + name + ".XXXXXX").utf8CString)
        // mkstemp creates the file 0600 and exclusively.
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: Failure?
        do {
            try writeAll(bytes, to: descriptor, path: path)
            if fsync(descriptor) != 0 { failure = Failure(path: path, reason: String(cString: strerror(errno))) }
        } catch {
            failure = error
        }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = Failure(path: path, reason: String(cString: strerror(errno))) }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
    }
}
