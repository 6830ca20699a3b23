import Glibc

/// A file the user asked for: created (or truncated) with their umask, or, for a session file,
/// private to them and appended to.
enum OutputFile {
    static func create(_ path: String, appending: Bool = false, mode: mode_t = 0o644) throws -> FileStream {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        let descriptor = open(path, flags, mode)
        guard descriptor >= 0 else {
            throw badInput(InputFile.OpenError(path: path, reason: String(cString: strerror(errno)), action: "create"))
        }
        return FileStream(descriptor: descriptor)
    }
}
