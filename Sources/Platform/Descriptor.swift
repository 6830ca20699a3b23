import Glibc

/// The few calls on a raw file descriptor that the event-driven code needs, with errors as values.
public enum Descriptor {
    /// What one read(2) gave.
    public enum ReadResult: Equatable {
        case bytes([UInt8])
        case endOfFile
        /// Nothing to read now (EINTR, EAGAIN): try again when poll says so.
        case notNow
        case failed(Errno)
    }

    public static func read(_ descriptor: Int32, upTo count: Int) -> ReadResult {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if got > 0 { return .bytes(Array(bytes[..<got])) }
        if got == 0 { return .endOfFile }
        return errno == EINTR || errno == EAGAIN ? .notNow : .failed(.current)
    }

    /// One packet from a socket without waiting (a SOCK_SEQPACKET packet may be empty); nil when
    /// none is waiting or the socket failed.
    public static func receivePacket(_ descriptor: Int32, upTo count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return got >= 0 ? Array(bytes[..<got]) : nil
    }

    /// poll(2)'s answer that the other end hung up or the descriptor failed.
    public static func isHangUp(_ returnedEvents: Int16) -> Bool { returnedEvents & Int16(POLLHUP | POLLERR) != 0 }

    public static func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    public static func setNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
}
