import Platform
import SessionLog

extension SessionFileReader {
    /// Bytes read at a time: a session file is never in memory whole.
    static let pieceSize = 1 << 20

    /// A session file read from disk piece by piece, decompressed as it is read when it is gzip
    /// (a closed session, `ID.jsonl.gz`). Here, beside the session store, so that what lists the
    /// sessions can read them too. Throws `FileOpenError` when the file cannot
    /// be read, `RecordingError` when it is not a session file or is damaged (or its gzip data is: `FileOpenError`).
    public static func read(path: String, detail: Detail = .full) throws -> SessionFile {
        try read(input: InputFile(opening: path), source: path, detail: detail)
    }

    /// The rest of an input already open (whose start a caller may have peeked at), read as
    /// `read(path:)` reads a file; errors name it `source`.
    public static func read(input: InputFile, source: String, detail: Detail = .full) throws -> SessionFile {
        var lines = Lines(source: source, detail: detail)
        try input.forEachContentPiece(size: pieceSize) { try lines.feed($0) }
        return try lines.finish()
    }
}
