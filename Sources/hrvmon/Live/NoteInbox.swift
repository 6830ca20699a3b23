import DBus
import Foundation
import Glibc

/// Where `hrvmon note "text"` reaches the running session: a Unix datagram socket in
/// `$XDG_RUNTIME_DIR/hrvmon` (else the data directory), private to the user. The session writes
/// the note into its file itself, so the file keeps one writer and its order.
final class NoteInbox {
    static var directory: String { XDGDirectory.runtime.map { $0 + "/hrvmon" } ?? DataDirectory.path }
    static var path: String { directory + "/notes.sock" }

    /// Longest note accepted, in bytes.
    static let limit = 4096

    private let descriptor: Int32
    private let boundPath: String
    private let onNote: (String) -> Void
    private var source: EventLoop.Source?

    /// Listens on `path`; throws when another session listens already or the socket cannot be made.
    init(loop: EventLoop, onNote: @escaping (String) -> Void) throws(DataDirectory.Failure) {
        let path = Self.path
        guard path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw DataDirectory.Failure(path: path, reason: "too long for a socket path; set XDG_RUNTIME_DIR to a shorter directory")
        }
        try DataDirectory.makePrivateDirectory(Self.directory)
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw DataDirectory.Failure(path: path, reason: String(cString: strerror(errno))) }
        if Self.withAddress(path, { bind(descriptor, $0, $1) }) != 0 {
            let reason = errno
            // A socket left by a session that died can be taken over; a live one cannot.
            guard reason == EADDRINUSE, Self.send(Array(), to: path) == ECONNREFUSED, unlink(path) == 0,
                Self.withAddress(path, { bind(descriptor, $0, $1) }) == 0
            else {
                close(descriptor)
                throw DataDirectory.Failure(
                    path: path, reason: reason == EADDRINUSE ? "another hrvmon session takes notes already" : String(cString: strerror(reason)))
            }
        }
        chmod(path, 0o600)
        self.descriptor = descriptor
        boundPath = path
        self.onNote = onNote
        source = loop.watch(descriptor) { [weak self] _ in self?.receive() }
    }

    /// Hands on the notes waiting on the socket: the loop does when it is readable, and the
    /// session before it drops the inbox, so no note that `hrvmon note` was told went in is lost.
    func receive() {
        var buffer = [UInt8](repeating: 0, count: Self.limit + 1)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { break }
            // Empty datagrams are liveness probes from a session starting up.
            guard count > 0 else { continue }
            let text = String(decoding: buffer[0..<min(count, Self.limit)], as: UTF8.self)
            onNote(text)
        }
    }

    deinit {
        source?.cancel()
        close(descriptor)
        unlink(boundPath)
    }

    /// Sends a note to the running session; 0, or the errno (ENOENT, ECONNREFUSED: none runs).
    static func send(_ bytes: [UInt8], to path: String = path) -> Int32 {
        let sender = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard sender >= 0 else { return errno }
        defer { close(sender) }
        let sent = withAddress(path) { address, length in
            bytes.withUnsafeBytes { sendto(sender, $0.baseAddress, $0.count, 0, address, length) }
        }
        return sent < 0 ? errno : 0
    }

    private static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8.prefix(MemoryLayout.size(ofValue: address.sun_path) - 1))
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
