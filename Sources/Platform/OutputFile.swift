import Glibc

/// A file the user asked for: created (or truncated) with their umask, or with `mode` when it
/// holds health data (0600).
public enum OutputFile {
    public static func create(_ path: String, mode: mode_t = 0o644) throws(FileOpenError) -> FileStream {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_TRUNC, mode)
        guard descriptor >= 0 else { throw FileOpenError(path: path, .current, action: "create") }
        return FileStream(descriptor: descriptor)
    }
}
