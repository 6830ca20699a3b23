import Glibc

/// An advisory lock on a file (flock(2), exclusive), for read-modify-write of a file several
/// processes may change at once: the second waits until the first has written. The lock file is
/// created 0600 when missing and left in place (removing it would let two processes lock two
/// different files of one name).
public enum FileLock {
    /// Runs `body` holding the lock on `path`; the error of opening or locking it when neither can.
    public static func holding<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Errno.current }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Errno.current }
        }
        return try body()
    }
}
