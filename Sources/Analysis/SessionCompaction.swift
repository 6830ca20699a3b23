import Platform
import Recordings
import SessionLog
import UserData

/// `hrvmon sessions --compact`: a session recorded before format version 2 rewritten as version 2
/// and compressed (`ID.jsonl.gz`), the old file removed only once the new one has been read back
/// and found to hold the same session: the same beats as received, the same corrected timeline
/// and events, and the same events again from a replay of each through the live pipeline.
public enum SessionCompaction {
    public enum Outcome: Equatable {
        /// The file's size before and after.
        case compacted(before: Int, after: Int)
        /// Left as it is, and why.
        case skipped(String)
    }

    public struct Mismatch: Error, CustomStringConvertible {
        public var path: String
        public var difference: String
        public var description: String {
            "\(path): its version 2 rewrite differs (\(difference)); the session is left as it was, please report this"
        }
    }

    /// Compacts the session file at `path` (a `.jsonl` that has ended: a `summary` line, no torn line).
    public static func compact(_ path: String) throws -> Outcome {
        guard path.hasSuffix(SessionStore.fileExtension) else { return .skipped("already compressed") }
        let before = FileSystem.status(path)?.size ?? 0
        let original = try SessionFileReader.read(path: path)
        guard original.summary != nil, original.tornLine == nil else {
            return .skipped("it has not ended (no summary line): it may still be recording")
        }
        let destination = path + ".gz"
        if original.header.version >= 2 {
            if let failure = SessionStore.compress(path) { throw failure }
        } else {
            var compaction = SessionFileCompaction(source: path)
            var converted: [UInt8] = []
            try forEachLine(of: path) { line in
                for text in try compaction.convert(line) { converted += text.utf8 }
            }
            for text in compaction.finish() { converted += text.utf8 }
            if let failure = Gzip.write(converted, to: destination) { throw failure }
            do {
                if let difference = try SessionComparison.difference(original, try SessionFileReader.read(path: destination), source: path) {
                    throw Mismatch(path: path, difference: difference)
                }
            } catch {
                _ = FileSystem.remove(destination)
                throw error
            }
            if let failure = FileSystem.remove(path) { throw FileOpenError(path: path, reason: failure.description, action: "remove") }
        }
        return .compacted(before: before, after: FileSystem.status(destination)?.size ?? 0)
    }

    /// Each line of the file at `path`, without its newline.
    private static func forEachLine(of path: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var partial: [UInt8] = []
        try InputFile(opening: path).forEachPiece(size: 1 << 20) { piece in
            var start = 0
            while let end = piece[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if partial.isEmpty {
                    try body(UnsafeBufferPointer(rebasing: piece[start..<end]))
                } else {
                    partial += piece[start..<end]
                    try partial.withUnsafeBufferPointer(body)
                    partial.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            partial += piece[start...]
        }
        if !partial.isEmpty { try partial.withUnsafeBufferPointer(body) }
    }
}
