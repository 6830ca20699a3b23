import HRV
import HeartRateProtocol
import Recordings

/// Reads a session file. Every line is checked; a damaged or foreign file is an error naming the
/// line, never a crash. A last line cut short (a crash or power loss while writing) is skipped
/// and reported in `tornLine`; lines of unknown types are skipped, so newer files stay readable.
public enum SessionFileReader {
    public static let formatName = "hrvmon-session"
    public static let newestVersion = 1

    /// How much to read: everything; all but the corrected beats and metrics (pages that chart
    /// the received beats only); or, for listings, all but the per-beat and per-packet lines.
    public enum Detail: Sendable {
        case full, beats, overview

        /// Prefixes of the lines skipped, as hrvmon writes them.
        fileprivate var skipped: [[UInt8]] {
            switch self {
            case .full: []
            case .beats: [#"{"type":"nn","#, #"{"type":"metrics","#].map { Array($0.utf8) }
            case .overview: [#"{"type":"rr","#, #"{"type":"nn","#, #"{"type":"metrics","#].map { Array($0.utf8) }
            }
        }
    }

    public static func read(_ bytes: [UInt8], source: String, detail: Detail = .full) throws(RecordingError) -> SessionFile {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let endsWithNewline = bytes.last == UInt8(ascii: "\n")
        if endsWithNewline { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else {
            throw RecordingError(source: source, line: 1, problem: "empty file, not an hrvmon session", hint: "session files start with a \"session\" header line")
        }
        var builder = Builder()
        let skipped = detail.skipped
        for (index, line) in lines.enumerated() {
            let number = index + 1
            // The header and the last line (which may be torn) are always read.
            if number > 1, number < lines.count, skipped.contains(where: { line.starts(with: $0) }) { continue }
            let object: [String: JSONValue]
            do {
                object = try parseObject(line)
            } catch {
                if number == lines.count && !endsWithNewline && number > 1 {
                    builder.file?.tornLine = number
                    break
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
            do {
                try builder.add(object, line: number)
            } catch {
                throw RecordingError(source: source, line: number, problem: error.reason, hint: error.hint)
            }
        }
        builder.flushPacket()
        guard let file = builder.file else {
            throw RecordingError(source: source, line: 1, problem: "not an hrvmon session file (no header line)")
        }
        return file
    }

    struct LineError: Error {
        var reason: String
        var hint: String?
    }

    private static func parseObject(_ line: ArraySlice<UInt8>) throws(LineError) -> [String: JSONValue] {
        switch JSONValue.parse(line) {
        case .object(let members)?: return members
        case nil: throw LineError(reason: line.isEmpty ? "empty line" : "not JSON")
        default: throw LineError(reason: "not a JSON object")
        }
    }

    /// Accumulates the file line by line.
    private struct Builder {
        var file: SessionFile?
        /// The packet whose beats are being collected (a packet's rr lines are consecutive,
        /// with the pipeline's nn and metrics lines between them).
        var packet: (number: Int, measurement: HeartRateMeasurement, time: Double)?

        mutating func add(_ object: [String: JSONValue], line: Int) throws(LineError) {
            let fields = Fields(object)
            guard file != nil else {
                guard (try? fields.string("type")) == "session", (try? fields.string("format")) == formatName else {
                    throw LineError(reason: "not an hrvmon session file (its first line is not a session header)",
                                    hint: "pass a session file: `hrvmon sessions` lists them")
                }
                file = SessionFile(header: try header(fields))
                return
            }
            let type = try fields.string("type")
            switch type {
            case "rr": try addBeat(fields)
            case "nn":
                file!.placed.append(SessionFile.PlacedBeat(
                    seconds: try fields.double("s"), milliseconds: try fields.double("nn_ms"), kind: try fields.string("class"),
                    followsGap: try fields.optionalDouble("after_gap") == 1))
            case "metrics":
                file!.metrics.append(SessionFile.Metrics(
                    time: try fields.double("t"), sessionSeconds: try fields.double("session_s"),
                    heartRate: try fields.optionalDouble("hr_bpm"), rmssd: try fields.optionalDouble("rmssd_ms"),
                    lnRMSSD: try fields.optionalDouble("ln_rmssd"), sdnn: try fields.optionalDouble("sdnn_ms"),
                    state: try fields.string("state"), level: try fields.optionalDouble("level"),
                    calibrating: try fields.bool("calibrating")))
            case "error":
                flushPacket()
                file!.steps.append(.malformed(try hexBytes(try fields.string("bytes")), time: try fields.double("t")))
            case "gap":
                flushPacket()
                file!.steps.append(.gap(time: try fields.double("t")))
            case "exercise":
                flushPacket()
                guard let kind = ExerciseMark.Kind(rawValue: try fields.string("event")) else {
                    throw LineError(reason: "exercise event must be started or stopped")
                }
                let mark = ExerciseMark(
                    kind: kind, pattern: try fields.string("pattern"), time: try fields.double("t"),
                    sessionSeconds: try fields.double("session_s"))
                file!.steps.append(.exercise(mark))
                file!.exercises.append(mark)
            case "stress", "activity":
                let reason = try fields.object("reason").map { why throws(LineError) in
                    StressReason(
                        rmssdChange: try why.double("rmssd_change_pct") / 100, rmssd: try why.double("rmssd_ms"),
                        referenceRMSSD: try why.double("reference_rmssd_ms"), heartRateAboveRest: try why.double("hr_above_rest_bpm"),
                        breathingRate: try why.optionalDouble("breathing_per_min"))
                }
                file!.episodes.append(StressEpisode(
                    kind: type == "stress" ? .stress : .activity, start: try fields.double("start_s"),
                    end: try fields.double("end_s"), peakLevel: try fields.optionalDouble("peak_level"), reason: reason))
            case "suggestion":
                file!.suggestions.append(SessionFile.Suggestion(
                    time: try fields.double("t"), sessionSeconds: try fields.double("session_s"),
                    reason: try fields.string("reason"), pattern: try fields.string("pattern")))
            case "note":
                file!.notes.append(SessionFile.Note(time: try fields.double("t"), text: try fields.string("text")))
            case "link":
                file!.links.append(SessionFile.LinkChange(
                    time: try fields.double("t"), state: try fields.string("state"), detail: try fields.string("detail")))
            case "sensor":
                if let address = try? fields.string("address") {
                    file!.header.deviceAddress = file!.header.deviceAddress ?? address
                    file!.header.deviceName = file!.header.deviceName ?? (try? fields.string("name"))
                }
            case "summary":
                file!.summary = SessionFile.Summary(
                    time: try fields.double("t"), seconds: try fields.double("duration_s"), beats: try fields.int("beats"),
                    heartRate: try fields.optionalDouble("hr_bpm"), rmssd: try fields.optionalDouble("rmssd_ms"),
                    sdnn: try fields.optionalDouble("sdnn_ms"), stressSeconds: try fields.double("stress_s"),
                    exercises: try fields.int("exercises"), baseline: try baseline(fields.object("baseline")))
            case "effect":
                // Derived numbers, recomputed by a replay: a damaged one is left out, not fatal.
                if let effect = try? effect(fields) { file!.effects.append(effect) }
            case "resonance_step":
                file!.resonanceSteps.append(ResonanceStepMark(
                    index: try fields.int("step"), rate: try fields.optionalDouble("bpm"), stepSeconds: try fields.double("step_s"),
                    settleSeconds: try fields.double("settle_s"), inhaleShare: try fields.double("inhale_share"),
                    time: try fields.double("t"), sessionSeconds: try fields.double("session_s")))
            case "notice", "session":
                break
            default:
                file!.unknownLines += 1
            }
        }

        private mutating func addBeat(_ fields: Fields) throws(LineError) {
            let ticks = try fields.int("rr_1024")
            let heartRate = try fields.int("hr_bpm")
            guard (1...Int(UInt16.max)).contains(ticks) else { throw LineError(reason: "rr_1024 \(ticks) is not a strap interval (1–65535)") }
            guard (0...Int(UInt16.max)).contains(heartRate) else { throw LineError(reason: "hr_bpm \(heartRate) is out of range") }
            let contactName = try fields.string("contact")
            guard let contact = HeartRateMeasurement.SensorContact(name: contactName) else {
                throw LineError(reason: "contact must be detected, not_detected or unsupported, not '\(contactName)'")
            }
            let energy = try fields.optionalInt("energy_kj").map { value throws(LineError) -> UInt16 in
                guard let energy = UInt16(exactly: value) else { throw LineError(reason: "energy_kj \(value) is out of range") }
                return energy
            }
            let number = try fields.int("pkt")
            let time = try fields.double("t")
            let received = try fields.double("recv")
            if packet?.number != number {
                flushPacket()
                packet = (number, HeartRateMeasurement(heartRate: UInt16(heartRate), sensorContact: contact, energyExpended: energy), received)
            }
            packet!.measurement.rrIntervals.append(UInt16(ticks))
            file!.beats.append(SessionFile.RawBeat(
                time: time, sequence: try fields.int("seq"), ticks: UInt16(ticks), heartRate: UInt16(heartRate), contact: contactName))
        }

        mutating func flushPacket() {
            guard let packet else { return }
            file!.steps.append(.packet(packet.measurement, time: packet.time))
            self.packet = nil
        }

        private func header(_ fields: Fields) throws(LineError) -> SessionFile.Header {
            let version = try fields.int("version")
            guard version <= newestVersion else {
                throw LineError(reason: "session format version \(version) is newer than this hrvmon reads (\(newestVersion))",
                                hint: "update hrvmon")
            }
            let device = try fields.object("device")
            var configuration = ""
            if let config = try fields.object("config") {
                for key in config.keys.sorted() {
                    if case .array(let values)? = config.raw(key) {
                        for value in values { configuration += "\(key) = \(value.description)\n" }
                    } else {
                        configuration += "\(key) = \(try config.string(key))\n"
                    }
                }
            }
            return SessionFile.Header(
                id: try fields.string("id"), start: try fields.double("t"), startLocal: try fields.string("start_local"),
                source: try fields.string("source"), program: try fields.string("program"),
                deviceName: try device?.optionalString("name"), deviceAddress: try device?.optionalString("address"),
                baseline: try baseline(fields.object("baseline")), configuration: configuration)
        }

        private func effect(_ fields: Fields) throws(LineError) -> SessionFile.Effect {
            func span(_ key: String) throws(LineError) -> SessionFile.Effect.Span {
                let values = try fields.object(key)
                return SessionFile.Effect.Span(rmssd: try values?.optionalDouble("rmssd_ms"), heartRate: try values?.optionalDouble("hr_bpm"))
            }
            return SessionFile.Effect(
                start: try fields.double("start_s"), before: try span("before"), during: try span("during"), after: try span("after"),
                coherence: try fields.object("coherence")?.optionalDouble("mean"))
        }

        private func baseline(_ fields: Fields?) throws(LineError) -> Baseline? {
            guard let fields else { return nil }
            guard let source = Baseline.Source(rawValue: try fields.string("source")) else {
                throw LineError(reason: "baseline source must be session or personal")
            }
            return Baseline(
                source: source, restingHR: try fields.double("resting_hr_bpm"), lnRMSSDMean: try fields.double("ln_rmssd_mean"),
                lnRMSSDSD: try fields.double("ln_rmssd_sd"), samples: try fields.int("samples"))
        }

        private func hexBytes(_ text: String) throws(LineError) -> [UInt8] {
            let digits = Array(text.utf8)
            guard digits.count % 2 == 0 else { throw LineError(reason: "bytes must be pairs of hex digits") }
            var bytes: [UInt8] = []
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                    throw LineError(reason: "bytes must be pairs of hex digits")
                }
                bytes.append(byte)
            }
            return bytes
        }
    }
}

/// Typed access to one JSON object's fields, with errors naming the key. A field is read as the
/// reader read it through JSONSerialization's values before: true and false are the numbers 1
/// and 0, and the numbers 1 and 0 are true and false.
private struct Fields {
    let object: [String: JSONValue]

    init(_ object: [String: JSONValue]) { self.object = object }

    var keys: Dictionary<String, JSONValue>.Keys { object.keys }

    func raw(_ key: String) -> JSONValue? { object[key] }

    func string(_ key: String) throws(SessionFileReader.LineError) -> String {
        guard case .string(let value)? = object[key] else { throw missing(key, "text") }
        return value
    }

    func optionalString(_ key: String) throws(SessionFileReader.LineError) -> String? {
        if isAbsent(key) { return nil }
        return try string(key)
    }

    func double(_ key: String) throws(SessionFileReader.LineError) -> Double {
        guard let value = try optionalDouble(key) else { throw missing(key, "a number") }
        return value
    }

    func optionalDouble(_ key: String) throws(SessionFileReader.LineError) -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let number)?: return number.value
        case .bool(let value)?: return value ? 1 : 0
        default: throw missing(key, "a number")
        }
    }

    func int(_ key: String) throws(SessionFileReader.LineError) -> Int {
        guard let value = try optionalInt(key) else { throw missing(key, "a whole number") }
        return value
    }

    func optionalInt(_ key: String) throws(SessionFileReader.LineError) -> Int? {
        guard let number = try optionalDouble(key) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else { throw missing(key, "a whole number") }
        return Int(number)
    }

    func bool(_ key: String) throws(SessionFileReader.LineError) -> Bool {
        switch object[key] {
        case .bool(let value)?: return value
        case .number(let number)? where number.value == 1: return true
        case .number(let number)? where number.value == 0: return false
        default: throw missing(key, "true or false")
        }
    }

    func object(_ key: String) throws(SessionFileReader.LineError) -> Fields? {
        if isAbsent(key) { return nil }
        guard case .object(let nested)? = object[key] else { throw missing(key, "an object") }
        return Fields(nested)
    }

    private func isAbsent(_ key: String) -> Bool {
        switch object[key] {
        case nil, .null?: true
        default: false
        }
    }

    private func missing(_ key: String, _ kind: String) -> SessionFileReader.LineError {
        SessionFileReader.LineError(reason: "\"\(key)\" must be \(kind)")
    }
}
