import LivePipeline
import Platform
import UserData

/// Where `hrvmon note "text"` reaches the running session: a Unix datagram socket in
/// `$XDG_RUNTIME_DIR/hrvmon` (else the data directory), private to the user. The session writes
/// the note into its file itself, so the file keeps one writer and its order.
public final class NoteInbox {
    public static var directory: String { XDGDirectory.runtime.map { $0 + "/hrvmon" } ?? DataDirectory.path }
    public static var path: String { directory + "/notes.sock" }

    /// Longest note accepted, in bytes.
    public static let limit = SessionEvent.noteLimit

    private let descriptor: Int32
    private let boundPath: String
    private let onNote: (String) -> Void
    private var source: EventLoop.Source?

    /// Listens on `path`; throws when another session listens already or the socket cannot be made.
    public init(loop: EventLoop, onNote: @escaping (String) -> Void) throws(DataDirectory.Failure) {
        let path = Self.path
        guard path.utf8.count <= UnixDatagram.maximumPathLength else {
            throw DataDirectory.Failure(path: path, reason: "too long for a socket path; set XDG_RUNTIME_DIR to a shorter directory")
        }
        try DataDirectory.makePrivateDirectory(Self.directory)
        var bound = UnixDatagram.bind(path)
        // A socket left by a session that died can be taken over; a live one cannot.
        if case .failure(.addressInUse) = bound, Self.send(Array(), to: path) == .connectionRefused, FileSystem.remove(path) == nil {
            bound = UnixDatagram.bind(path)
        }
        switch bound {
        case .failure(let failure):
            throw DataDirectory.Failure(
                path: path, reason: failure == .addressInUse ? "another hrvmon session takes notes already" : failure.description)
        case .success(let descriptor):
            _ = FileSystem.setPermissions(path, 0o600)
            self.descriptor = descriptor
        }
        boundPath = path
        self.onNote = onNote
        source = loop.watch(descriptor) { [weak self] _ in self?.receive() }
    }

    /// Hands on the notes waiting on the socket: the loop does when it is readable, and the
    /// session before it drops the inbox, so no note that `hrvmon note` was told went in is lost.
    public func receive() {
        while let datagram = UnixDatagram.receive(descriptor, limit: Self.limit + 1) {
            // Empty datagrams are liveness probes from a session starting up.
            guard !datagram.isEmpty else { continue }
            onNote(String(decoding: datagram.prefix(Self.limit), as: UTF8.self))
        }
    }

    deinit {
        source?.cancel()
        Descriptor.close(descriptor)
        _ = FileSystem.remove(boundPath)
    }

    /// Sends a note to the running session; the error when none runs (ENOENT, ECONNREFUSED).
    public static func send(_ bytes: [UInt8], to path: String = path) -> Errno? {
        UnixDatagram.send(bytes, to: path)
    }
}
