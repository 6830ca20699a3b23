import LivePipeline
import Platform
import SelfReport
import SessionLog
import UserData

/// Where `hrvmon note "text"` and `hrvmon checkin` reach the running session: a Unix datagram
/// socket in `$XDG_RUNTIME_DIR/hrvmon` (else the data directory), private to the user. The
/// session writes the note or check-in into its file itself, so the file keeps one writer and its
/// order. A datagram is a note's text, or `checkInMark` and a check-in's diary line.
public final class NoteInbox {
    public static var directory: String { XDGDirectory.runtime.map { $0 + "/hrvmon" } ?? DataDirectory.path }
    public static var path: String { directory + "/notes.sock" }

    /// Longest note accepted, in bytes.
    public static let limit = SessionEvent.noteLimit

    private let descriptor: Int32
    private let boundPath: String
    private let onMessage: (SessionEvent) -> Void
    private var source: EventLoop.Source?

    /// Listens on `path`; throws when another session listens already or the socket cannot be made.
    public init(loop: EventLoop, onMessage: @escaping (SessionEvent) -> Void) throws(DataDirectory.Failure) {
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
        self.onMessage = onMessage
        source = loop.watch(descriptor) { [weak self] _ in self?.receive() }
    }

    /// Hands on the notes waiting on the socket: the loop does when it is readable, and the
    /// session before it drops the inbox, so no note that `hrvmon note` was told went in is lost.
    public func receive() {
        while let datagram = UnixDatagram.receive(descriptor, limit: Self.limit + 1) {
            // Empty datagrams are liveness probes from a session starting up.
            guard !datagram.isEmpty else { continue }
            onMessage(Self.message(datagram))
        }
    }

    /// Begins a check-in's datagram: a control character no note typed at a prompt starts with.
    static let checkInMark = UInt8(0x1E)

    /// A datagram as the event it brings: a check-in, else (a damaged check-in too) a note.
    static func message(_ datagram: [UInt8]) -> SessionEvent {
        if datagram.first == checkInMark, case .checkIn(let checkIn, _)? = try? SelfReportRecords.entry(Array(datagram.dropFirst())) {
            return .checkIn(checkIn)
        }
        return .note(String(decoding: datagram.prefix(limit), as: UTF8.self))
    }

    /// Sends a check-in to the running session; the error when none runs, as `send`.
    public static func send(_ checkIn: CheckIn, to path: String = path) -> Errno? {
        send([checkInMark] + Array(SelfReportRecords.checkInLine(checkIn, at: 0).utf8.dropLast()), to: path)
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
