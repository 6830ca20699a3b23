import CZlib
import Glibc

/// gzip files (RFC 1952) through the system's zlib: a closed session file is kept so (`zcat`
/// reads it anywhere) and read back a piece at a time, so memory stays the same whatever its size.
public enum Gzip {
    /// Whether `start`, a file's first bytes, begins a gzip member.
    public static func begins(_ start: [UInt8]) -> Bool {
        start.count >= 2 && start[0] == 0x1F && start[1] == 0x8B
    }

    /// Compresses the file at `source` into a new file at `destination`, made as `AtomicFile`
    /// makes one (a temporary file beside it, synced, renamed): there is a whole `destination`
    /// or none. `source` is left as it is.
    public static func compress(_ source: String, to destination: String) -> FileOpenError? {
        let input: InputFile
        do { input = try InputFile(opening: source) } catch { return error }
        return write(to: destination) { piece throws(FileOpenError) in try input.read(into: &piece) }
    }

    /// `bytes` compressed into a new file at `destination`, made as `compress` makes one.
    public static func write(_ bytes: [UInt8], to destination: String) -> FileOpenError? {
        write(to: destination, next: once(bytes))
    }

    /// `next` fills the piece it is given with the next bytes to compress and returns how many: 0 at the end.
    private static func write(to destination: String, next: (inout [UInt8]) throws(FileOpenError) -> Int) -> FileOpenError? {
        var readFailure: FileOpenError?
        let failure = AtomicFile.create(destination) { descriptor in
            do throws(FileOpenError) {
                return try deflate(next, to: descriptor)
            } catch {
                readFailure = error
                return .ioError
            }
        }
        return readFailure ?? failure.map { FileOpenError(path: destination, $0, action: "write") }
    }

    /// `bytes` as one gzip member in memory: what is appended to a compressed file to add to it
    /// (a gzip file may hold several members one after the other; `zcat` and `GzipInput` read
    /// them as one stream).
    public static func member(_ bytes: [UInt8]) -> [UInt8] {
        var member: [UInt8] = []
        _ = try? deflate(once(bytes), emit: { output in
            member += output
            return nil
        })
        return member
    }

    /// A `next` that gives `bytes`, then the end.
    private static func once(_ bytes: [UInt8]) -> (inout [UInt8]) throws(FileOpenError) -> Int {
        var given = false
        return { piece in
            if given { return 0 }
            given = true
            piece = bytes
            return bytes.count
        }
    }

    private static func deflate(_ next: (inout [UInt8]) throws(FileOpenError) -> Int, to descriptor: Int32) throws(FileOpenError) -> Errno? {
        try deflate(next) { FileStream.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }
    }

    /// Compresses what `next` gives into one gzip member, handing each piece of output to `emit`.
    private static func deflate(
        _ next: (inout [UInt8]) throws(FileOpenError) -> Int, emit: (UnsafeBufferPointer<UInt8>) -> Errno?
    ) throws(FileOpenError) -> Errno? {
        var stream = z_stream()
        // Level 6 (gzip's default); windowBits 15 + 16: a gzip header and trailer, not zlib's.
        guard deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .noMemory
        }
        defer { deflateEnd(&stream) }
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 18)
        defer { output.deallocate() }
        while true {
            let count = try next(&piece)
            let flush = count == 0 ? Z_FINISH : Z_NO_FLUSH
            let failure = piece.withUnsafeMutableBufferPointer { buffer -> Errno? in
                stream.next_in = buffer.baseAddress
                stream.avail_in = UInt32(count)
                repeat {
                    stream.next_out = output.baseAddress
                    stream.avail_out = UInt32(output.count)
                    guard CZlib.deflate(&stream, flush) != Z_STREAM_ERROR else { return .ioError }
                    let produced = output.count - Int(stream.avail_out)
                    if let failure = emit(UnsafeBufferPointer(rebasing: output[..<produced])) { return failure }
                } while stream.avail_out == 0
                return nil
            }
            if let failure { return failure }
            if count == 0 { return nil }
        }
    }
}

/// A gzip file's content, decompressed as it is read: `forEachPiece` as `InputFile`'s, for a
/// reader that consumes a stream. Damaged or cut-short data is an error naming the file, never
/// a crash or a silent end.
public final class GzipInput {
    private let input: InputFile

    /// `input` positioned at the start of its gzip data.
    public init(_ input: InputFile) {
        self.input = input
    }

    public var path: String { input.path }

    /// Hands the decompressed content to `body` in pieces of up to `size` bytes. Members
    /// following one another (as `cat a.gz b.gz` makes) are read as one content, as `zcat` reads them.
    public func forEachPiece(size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var stream = z_stream()
        // windowBits 15 + 16: gzip only.
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FileOpenError(path: path, reason: "zlib cannot start (out of memory)", action: "decompress")
        }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        defer { output.deallocate() }
        var compressed = [UInt8](repeating: 0, count: 1 << 16)
        var memberEnded = false
        var anyData = false
        while case let count = try input.read(into: &compressed), count > 0 {
            anyData = true
            try compressed.withUnsafeMutableBufferPointer { buffer in
                stream.next_in = buffer.baseAddress
                stream.avail_in = UInt32(count)
                while stream.avail_in > 0 {
                    if memberEnded {
                        inflateReset(&stream)
                        memberEnded = false
                    }
                    repeat {
                        stream.next_out = output.baseAddress
                        stream.avail_out = UInt32(output.count)
                        let status = inflate(&stream, Z_NO_FLUSH)
                        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw damaged(stream) }
                        let produced = output.count - Int(stream.avail_out)
                        if produced > 0 { try body(UnsafeBufferPointer(rebasing: output[..<produced])) }
                        if status == Z_STREAM_END {
                            memberEnded = true
                            break
                        }
                    } while stream.avail_out == 0
                    if !memberEnded { break }
                }
            }
        }
        guard anyData, memberEnded else {
            throw FileOpenError(
                path: path, reason: anyData ? "its gzip data is cut short (the file is incomplete)" : "empty file, not gzip data",
                action: "decompress")
        }
    }

    private func damaged(_ stream: z_stream) -> FileOpenError {
        let detail = stream.msg.map { String(cString: $0) } ?? "not gzip data"
        return FileOpenError(path: path, reason: "damaged gzip data (\(detail)); `gzip -t` tests the file", action: "decompress")
    }
}

extension InputFile {
    /// Whether the rest of the input is gzip data (it starts as a gzip member does).
    public func isGzip() throws(FileOpenError) -> Bool {
        Gzip.begins(try peek(2))
    }

    /// `forEachPiece` of the content: decompressed when the input is gzip, as it is otherwise.
    public func forEachContentPiece(size: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        if try isGzip() {
            try GzipInput(self).forEachPiece(size: size, body)
        } else {
            try forEachPiece(size: size, body)
        }
    }

    /// The whole content of the file at `path`, decompressed when it is gzip.
    public static func readContent(_ path: String) throws -> [UInt8] {
        var content: [UInt8] = []
        try InputFile(opening: path).forEachContentPiece(size: 1 << 16) { content.append(contentsOf: $0) }
        return content
    }
}
