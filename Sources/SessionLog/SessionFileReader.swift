import HRV
import HeartRateProtocol
import Recordings

/// Reads a session file. Every line is checked; a damaged or foreign file is an error naming the
/// line, never a crash. A last line cut short (a crash or power loss while writing) is skipped
/// and reported in `tornLine`; lines of unknown types are skipped, so newer files stay readable.
public enum SessionFileReader {
    public static let formatName = "hrvmon-session"
    /// 2: `packet` lines instead of `rr`, no `nn`, metrics every 10 s (`SessionFileLines`).
    public static let newestVersion = 2

    /// How much to read: everything; all but the corrected beats, metrics and ECG (pages that
    /// chart the received beats only); for listings, all but the per-beat, per-packet, motion and
    /// ECG lines; or those and the metrics lines (the detector's state over time), without the beats.
    public enum Detail: Sendable {
        case full, beats, overview, metrics

        /// Prefixes of the lines skipped, as hrvmon writes them.
        var skipped: [[UInt8]] {
            switch self {
            case .full: []
            case .beats: [#"{"type":"nn","#, #"{"type":"metrics","#, #"{"type":"ecg","#].map { Array($0.utf8) }
            case .overview: [#"{"type":"rr","#, #"{"type":"packet","#, #"{"type":"nn","#, #"{"type":"metrics","#, #"{"type":"motion"#, #"{"type":"ecg","#].map { Array($0.utf8) }
            case .metrics: [#"{"type":"rr","#, #"{"type":"packet","#, #"{"type":"nn","#, #"{"type":"motion"#, #"{"type":"ecg","#].map { Array($0.utf8) }
            }
        }

        /// Whether the steps are read (and so motion seconds can be placed among them).
        var readsSteps: Bool {
            switch self {
            case .full, .beats: true
            case .overview, .metrics: false
            }
        }
    }

    /// A whole file in memory.
    public static func read(_ bytes: [UInt8], source: String, detail: Detail = .full) throws(RecordingError) -> SessionFile {
        try read(bytes, source: source, detail: detail, pieceSize: max(bytes.count, 1), readingInPlace: true)
    }

    /// `bytes` fed in pieces of `pieceSize`, each line read in place where it can be or always
    /// parsed: for the checks that every way reads a file alike.
    package static func read(
        _ bytes: [UInt8], source: String, detail: Detail, pieceSize: Int, readingInPlace: Bool, lineLimit: LineLimit = .standard
    ) throws(RecordingError) -> SessionFile {
        var lines = Lines(source: source, detail: detail, readingInPlace: readingInPlace, lineLimit: lineLimit)
        try bytes.withUnsafeBufferPointer { buffer throws(RecordingError) in
            var start = 0
            repeat {
                let end = min(start + pieceSize, buffer.count)
                try lines.feed(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                start = end
            } while start < buffer.count
        }
        return try lines.finish()
    }

    struct LineError: Error {
        var reason: String
        var hint: String?
    }

    /// A file read piece by piece, so that it is never in memory whole: `feed` each piece in
    /// order, then `finish`. A line hrvmon wrote is read in place (`ScannedObject`); any other is
    /// parsed as JSONSerialization parsed it, so both read every file as before.
    public struct Lines {
        private let source: String
        private let detail: Detail
        private let skipped: [[UInt8]]
        private let readingInPlace: Bool
        private let lineLimit: LineLimit
        private let scanStorage = ScannedObject.Storage()
        private var builder: SessionFileBuilder
        /// Lines handed to `take` so far.
        private var number = 0
        /// The start of a line whose end is in a later piece.
        private var partial: [UInt8] = []
        /// The last whole line: it is read once it is known whether another follows it.
        private var held: [UInt8] = []
        private var holding = false
        private var stopped = false
        /// The file is still being written: no whole line waits (`init(source:detail:following:)`).
        private var following = false

        /// `following`: the file is still being written (a session sent to a study as it is
        /// recorded), so each whole line is read when fed (`soFar`), not held until another
        /// follows it: the last line may be the newest notification's `packet` line, and the next
        /// may not come before the session ends. A torn last line is still reported by `finish`.
        public init(source: String, detail: Detail = .full, following: Bool = false) {
            self.init(source: source, detail: detail, readingInPlace: true)
            self.following = following
        }

        /// `readingInPlace` false: every line parsed, as before lines were read in place.
        package init(source: String, detail: Detail, readingInPlace: Bool, lineLimit: LineLimit = .standard) {
            self.source = source
            self.detail = detail
            skipped = detail.skipped
            builder = SessionFileBuilder(placesMotion: detail.readsSteps)
            self.readingInPlace = readingInPlace
            self.lineLimit = lineLimit
        }

        public mutating func feed(_ piece: UnsafeBufferPointer<UInt8>) throws(RecordingError) {
            var start = 0
            while !stopped, let end = piece[start...].firstIndex(of: UInt8(ascii: "\n")) {
                try checkLength(partial.count + end - start)
                let followed = end + 1 < piece.count
                if partial.isEmpty {
                    try line(UnsafeBufferPointer(rebasing: piece[start..<end]), followed: followed)
                } else {
                    partial.append(contentsOf: piece[start..<end])
                    var whole: [UInt8] = []
                    swap(&whole, &partial)
                    try whole.withUnsafeBufferPointer { line throws(RecordingError) in try self.line(line, followed: followed) }
                    partial = consume whole
                    partial.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            guard !stopped, start < piece.count else { return }
            try releaseHeld(isLast: false)
            try checkLength(partial.count + piece.count - start)
            partial.append(contentsOf: piece[start...])
        }

        /// The file as far as it has been read, for a reader `following` a file still being
        /// written; nil before its header.
        public var soFar: SessionFile? { builder.file }

        /// The file once every piece has been fed.
        public mutating func finish() throws(RecordingError) -> SessionFile {
            try releaseHeld(isLast: partial.isEmpty)
            if !stopped, !partial.isEmpty {
                let last = partial
                try last.withUnsafeBufferPointer { line throws(RecordingError) in try take(line, isLast: true, terminated: false) }
            }
            if number == 0 {
                throw RecordingError(source: source, line: 1, problem: "empty file, not an hrvmon session", hint: Self.headerHint)
            }
            guard var file = builder.finish() else {
                throw RecordingError(source: source, line: 1, problem: "not an hrvmon session file (no header line)")
            }
            if file.header.version >= 2, case .full = detail {
                do {
                    file.placed = try file.replayedCorrectedBeats()
                } catch {
                    throw RecordingError(source: source, line: 1, problem: "its header's config cannot be read: \(error)")
                }
            }
            return file
        }

        private static let headerHint = "session files start with a \"session\" header line"

        /// Throws when the line being gathered, `length` bytes so far, is too long for a session
        /// line (the held line, if any, comes before it).
        private func checkLength(_ length: Int) throws(RecordingError) {
            try lineLimit.check(length, line: number + (holding ? 2 : 1), source: source, expected: "a session file")
        }

        /// A line ended by a newline; `followed`: more of the file is known to come after it.
        /// Only then is it known not to be the last line; otherwise it waits (`held`), unless the
        /// file is being followed.
        private mutating func line(_ line: UnsafeBufferPointer<UInt8>, followed: Bool) throws(RecordingError) {
            try releaseHeld(isLast: false)
            if followed || following {
                try take(line, isLast: false, terminated: true)
            } else {
                held.append(contentsOf: line)
                holding = true
            }
        }

        private mutating func releaseHeld(isLast: Bool) throws(RecordingError) {
            guard holding, !stopped else { return }
            holding = false
            var line: [UInt8] = []
            swap(&line, &held)
            try line.withUnsafeBufferPointer { line throws(RecordingError) in try take(line, isLast: isLast, terminated: true) }
            held = consume line
            held.removeAll(keepingCapacity: true)
        }

        private mutating func take(_ line: UnsafeBufferPointer<UInt8>, isLast: Bool, terminated: Bool) throws(RecordingError) {
            number += 1
            if number == 1, line.isEmpty {
                throw RecordingError(source: source, line: 1, problem: "line 1 is blank: not an hrvmon session file", hint: Self.headerHint)
            }
            // The header and the last line (which may be torn) are always read.
            if number > 1, !isLast, skipped.contains(where: { line.starts(with: $0) }) { return }
            if readingInPlace, number > 1, let scanned = ScannedObject(line, storage: scanStorage) {
                // Its error is the parsed line's: both read the same values (the fuzz check holds
                // them to it), so it is not parsed again.
                return try adding { builder throws(LineError) in try builder.add(scanned) }
            }
            let object: [String: JSONValue]
            do {
                object = try parseObject(line)
            } catch {
                if isLast && !terminated && number > 1 {
                    builder.file?.tornLine = number
                    stopped = true
                    return
                }
                // A binary file, said so (not echoed); a damaged line later on is recovered above it.
                if number == 1, let binary = line.firstIndex(where: BinaryData.isBinary) {
                    throw BinaryData.error(
                        source: source, line: number, offset: Int64(binary), byte: line[binary],
                        expected: "a session file, text (JSON Lines): `hrvmon sessions` lists them")
                }
                throw RecordingError(
                    source: source, line: number,
                    problem: number == 1 ? "not an hrvmon session file (\(error.reason))" : "damaged line: \(error.reason)",
                    hint: number == 1 ? "pass a session file: `hrvmon sessions` lists them" : "the lines before it are intact: `head -n \(number - 1)` recovers them")
            }
            let isHeader = number == 1
            try adding { builder throws(LineError) in
                if isHeader { try builder.addHeader(JSONFields(object)) } else { try builder.add(JSONFields(object)) }
            }
        }

        private mutating func adding(_ add: (inout SessionFileBuilder) throws(LineError) -> Void) throws(RecordingError) {
            do {
                try add(&builder)
            } catch {
                throw RecordingError(source: source, line: number, problem: error.reason, hint: error.hint)
            }
        }

        private func parseObject(_ line: UnsafeBufferPointer<UInt8>) throws(LineError) -> [String: JSONValue] {
            switch JSONValue.parse(ArraySlice(line)) {
            case .object(let members)?: return members
            case nil: throw LineError(reason: line.isEmpty ? "empty line" : "not JSON")
            default: throw LineError(reason: "not a JSON object")
            }
        }
    }
}
