import Glibc

/// A file the user asked for, created (or truncated) with their umask.
enum OutputFile {
    static func create(_ path: String) throws -> FileStream {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw badInput(InputFile.OpenError(path: path, reason: String(cString: strerror(errno)), action: "create"))
        }
        return FileStream(descriptor: descriptor)
    }
}
