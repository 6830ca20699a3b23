import SelfReport

/// The session index as bytes (docs/reference/session-index.md): JSON Lines, a header line with
/// the format and its version, then per session a `session` line followed by its `note`,
/// `monitored`, `stress` (with its answer to "Was that stress?"), `checkin` and `exercise` lines. Flat lines of plain values, so that they are read
/// in place as session lines are (`ScannedObject`); a line with escapes (a note's quote) is
/// parsed as the session reader parses such lines. Numbers are read back correctly rounded
/// (`exactDouble`): each is the Double that was written, so a listing says what it said before.
extension IndexedSession {
    public static let indexFormat = "hrvmon-session-index"
    public static let indexVersion = 2

    /// Why an index cannot be used: it is then rebuilt from the session files.
    public struct IndexError: Error, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public static func indexBytes(_ entries: [IndexedSession]) -> [UInt8] {
        var header = JSONObject()
        header.add("format", indexFormat)
        header.add("version", indexVersion)
        var text = header.serialized + "\n"
        for entry in entries { text += entry.lines }
        return Array(text.utf8)
    }

    private var lines: String {
        var session = JSONObject()
        session.add("type", "session")
        session.add("path", key.path)
        session.add("size", key.size)
        session.add("mtime_ns", String(key.modified))
        session.add("ctime_ns", String(key.changed))
        session.add("hash", key.fingerprint)
        session.add("id", id)
        session.add("start", start)
        session.add("source", source)
        session.add("device_name", deviceName)
        session.add("device_address", deviceAddress)
        session.add("duration_s", seconds)
        session.add("beats", beats)
        session.add("hr_bpm", heartRate)
        session.add("rmssd_ms", rmssd)
        session.add("sdnn_ms", sdnn)
        session.add("stress_s", stressSeconds)
        session.add("exercises", exercises)
        session.add("ended", ended)
        session.add("torn_line", tornLine)
        session.add("origin", origin)
        session.add("end", end)
        var text = session.serialized + "\n"
        func line(_ type: String, _ fill: (inout JSONObject) -> Void) {
            var object = JSONObject()
            object.add("type", type)
            fill(&object)
            text += object.serialized + "\n"
        }
        for note in notes { line("note") { $0.add("t", note.time); $0.add("text", note.text) } }
        for span in monitored { line("monitored") { $0.add("start", span.start); $0.add("end", span.end) } }
        for episode in stressEpisodes {
            line("stress") {
                $0.add("start", episode.start)
                $0.add("end", episode.end)
                $0.add("clock_start", episode.clock.start)
                $0.add("clock_end", episode.clock.end)
                $0.add("peak", episode.peakLevel)
                $0.add("answer", episode.answer?.rawValue)
            }
        }
        for timed in checkIns { line("checkin") { $0.add("t", timed.time); $0.addFields(of: timed.checkIn) } }
        for exercise in breathing {
            line("exercise") {
                $0.add("start", exercise.start)
                $0.add("end", exercise.end)
                $0.add("pattern", exercise.pattern)
                $0.add("effect", exercise.effect.map(Self.effectObject))
            }
        }
        return text
    }

    private static func effectObject(_ effect: SessionFile.Effect) -> JSONObject {
        func span(_ span: SessionFile.Effect.Span) -> JSONObject {
            var object = JSONObject()
            object.add("rmssd_ms", span.rmssd)
            object.add("hr_bpm", span.heartRate)
            return object
        }
        var object = JSONObject()
        object.add("start", effect.start)
        object.add("before", span(effect.before))
        object.add("during", span(effect.during))
        object.add("after", span(effect.after))
        object.add("coherence", effect.coherence)
        return object
    }

    /// The entries of an index file; throws on anything but a whole index of this version.
    public static func parseIndex(_ bytes: [UInt8]) throws(IndexError) -> [IndexedSession] {
        var entries: [IndexedSession] = []
        let storage = ScannedObject.Storage()
        var number = 0
        var lineStart = 0
        try bytes.withUnsafeBufferPointer { all throws(IndexError) in
            while lineStart < all.count {
                guard let end = all[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                    throw IndexError(line: number + 1, reason: "the last line is cut short")
                }
                number += 1
                let line = UnsafeBufferPointer(rebasing: all[lineStart..<end])
                lineStart = end + 1
                do throws(SessionFileReader.LineError) {
                    if let scanned = ScannedObject(line, storage: storage) {
                        try take(scanned, number: number, into: &entries)
                    } else if case .object(let members)? = JSONValue.parse(ArraySlice(line)) {
                        try take(JSONFields(members), number: number, into: &entries)
                    } else {
                        throw SessionFileReader.LineError(reason: "not a JSON object")
                    }
                } catch {
                    throw IndexError(line: number, reason: error.reason)
                }
            }
        }
        if number == 0 { throw IndexError(line: 1, reason: "empty") }
        return entries
    }

    private static func take(_ fields: some LineFields, number: Int, into entries: inout [IndexedSession]) throws(SessionFileReader.LineError) {
        if number == 1 {
            guard try fields.optionalString("format") == indexFormat, try fields.optionalInt("version") == indexVersion else {
                throw SessionFileReader.LineError(reason: "not a version-\(indexVersion) \(indexFormat) header")
            }
            return
        }
        let type = try fields.string("type")
        if type == "session" {
            entries.append(try session(fields))
            return
        }
        guard !entries.isEmpty else { throw SessionFileReader.LineError(reason: "a \(type) line before any session line") }
        let last = entries.count - 1
        switch type {
        case "note": entries[last].notes.append(SessionFile.Note(time: try fields.exactDouble("t"), text: try fields.string("text")))
        case "monitored": entries[last].monitored.append(Span(start: try fields.exactDouble("start"), end: try fields.exactDouble("end")))
        case "stress":
            entries[last].stressEpisodes.append(Episode(
                start: try fields.exactDouble("start"), end: try fields.exactDouble("end"),
                clock: Span(start: try fields.exactDouble("clock_start"), end: try fields.exactDouble("clock_end")), peakLevel: try fields.optionalExactDouble("peak"),
                answer: try fields.optionalString("answer").map { text throws(SessionFileReader.LineError) in try EpisodeAnswer(line: text) }))
        case "checkin": entries[last].checkIns.append(SessionFile.TimedCheckIn(time: try fields.exactDouble("t"), checkIn: try fields.checkIn()))
        case "exercise":
            entries[last].breathing.append(BreathingExercise(
                start: try fields.exactDouble("start"), end: try fields.exactDouble("end"), pattern: try fields.string("pattern"),
                effect: try fields.object("effect").map(effect)))
        default: throw SessionFileReader.LineError(reason: "unknown line type \"\(type)\"")
        }
    }

    private static func session(_ fields: some LineFields) throws(SessionFileReader.LineError) -> IndexedSession {
        func nanoseconds(_ key: StaticString) throws(SessionFileReader.LineError) -> Int64 {
            guard let value = Int64(try fields.string(key)) else { throw SessionFileReader.LineError(reason: "\"\(key)\" must be a whole number in text") }
            return value
        }
        let key = Key(
            path: try fields.string("path"), size: try fields.int("size"), modified: try nanoseconds("mtime_ns"),
            changed: try nanoseconds("ctime_ns"), fingerprint: try fields.string("hash"))
        var entry = IndexedSession(
            key: key, id: try fields.string("id"), start: try fields.exactDouble("start"), source: try fields.string("source"),
            deviceName: try fields.optionalString("device_name"), deviceAddress: try fields.optionalString("device_address"))
        entry.seconds = try fields.exactDouble("duration_s")
        entry.beats = try fields.int("beats")
        entry.heartRate = try fields.optionalExactDouble("hr_bpm")
        entry.rmssd = try fields.optionalExactDouble("rmssd_ms")
        entry.sdnn = try fields.optionalExactDouble("sdnn_ms")
        entry.stressSeconds = try fields.exactDouble("stress_s")
        entry.exercises = try fields.int("exercises")
        entry.ended = try fields.bool("ended")
        entry.tornLine = try fields.optionalInt("torn_line")
        entry.origin = try fields.exactDouble("origin")
        entry.end = try fields.exactDouble("end")
        return entry
    }

    private static func effect(_ fields: some LineFields) throws(SessionFileReader.LineError) -> SessionFile.Effect {
        func span(_ key: StaticString) throws(SessionFileReader.LineError) -> SessionFile.Effect.Span {
            let object = try fields.object(key)
            return SessionFile.Effect.Span(rmssd: try object?.optionalExactDouble("rmssd_ms"), heartRate: try object?.optionalExactDouble("hr_bpm"))
        }
        return SessionFile.Effect(
            start: try fields.exactDouble("start"), before: try span("before"), during: try span("during"), after: try span("after"),
            coherence: try fields.optionalExactDouble("coherence"))
    }
}
