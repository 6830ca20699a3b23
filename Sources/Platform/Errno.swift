import Glibc

/// A failed system call's errno, described as the C library words it.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// This thread's errno, right after the failed call.
    public static var current: Errno { Errno(code: errno) }

    public var description: String { String(cString: strerror(code)) }
}

extension Errno {
    public static let notPermitted = Errno(code: EPERM)
    public static let noSuchFile = Errno(code: ENOENT)
    public static let permissionDenied = Errno(code: EACCES)
    public static let fileExists = Errno(code: EEXIST)
    public static let addressFamilyNotSupported = Errno(code: EAFNOSUPPORT)
    public static let addressInUse = Errno(code: EADDRINUSE)
    public static let connectionRefused = Errno(code: ECONNREFUSED)
    public static let ioError = Errno(code: EIO)
    public static let noMemory = Errno(code: ENOMEM)
}
