import ArgumentParser
import Glibc

/// Whole-file input from a path or `-` (standard input).
enum InputFile {
    struct OpenError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var action = "read"
        var description: String { "\(path): cannot \(action): \(reason)" }
    }

    static func read(_ path: String) throws(OpenError) -> [UInt8] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OpenError(path: path, reason: String(cString: strerror(errno))) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw OpenError(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}

/// Reports bad input (what, where, what to do) on stderr; throw the result to exit with status 2.
func badInput(_ error: some Error) -> ExitCode {
    FileStream.printError("hrvmon: \(error)")
    return ExitCode(2)
}
