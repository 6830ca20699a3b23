import Glibc

/// A failed system call's errno, described as the C library words it.
struct Errno: Error, Equatable, CustomStringConvertible {
    let code: Int32

    /// This thread's errno, right after the failed call.
    static var current: Errno { Errno(code: errno) }

    var description: String { String(cString: strerror(code)) }
}
