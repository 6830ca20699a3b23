import Glibc

/// A file the user asked for: created (or truncated) with their umask, or with `mode` when it
/// holds health data (0600).
enum OutputFile {
    static func create(_ path: String, mode: mode_t = 0o644) throws -> FileStream {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_TRUNC, mode)
        guard descriptor >= 0 else {
            throw badInput(InputFile.OpenError(path: path, reason: String(cString: strerror(errno)), action: "create"))
        }
        return FileStream(descriptor: descriptor)
    }
}
