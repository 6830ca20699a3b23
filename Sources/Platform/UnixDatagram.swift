import Glibc

/// Unix datagram sockets at a path: one process listens, others send it short messages.
public enum UnixDatagram {
    /// The longest path a socket address holds.
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A non-blocking socket bound to `path`, to read with `receive`.
    public static func bind(_ path: String) -> Result<Int32, Errno> {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.current) }
        guard withAddress(path, { Glibc.bind(descriptor, $0, $1) }) == 0 else {
            let failure = Errno.current
            Glibc.close(descriptor)
            return .failure(failure)
        }
        return .success(descriptor)
    }

    /// The next datagram waiting (up to `limit` bytes of it); nil when none is.
    public static func receive(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? Array(buffer[..<count]) : nil
    }

    /// Sends one datagram to the socket at `path`; the error when it could not (ENOENT,
    /// ECONNREFUSED: nobody listens).
    public static func send(_ bytes: [UInt8], to path: String) -> Errno? {
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { return .current }
        defer { Glibc.close(sender) }
        let sent = withAddress(path) { address, length in
            bytes.withUnsafeBytes { sendto(sender, $0.baseAddress, $0.count, 0, address, length) }
        }
        return sent < 0 ? .current : nil
    }

    private static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(maximumPathLength))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
