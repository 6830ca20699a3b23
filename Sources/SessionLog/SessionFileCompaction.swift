import HeartRateProtocol
import LivePipeline
import Recordings

/// A version 1 session file rewritten as version 2 (`hrvmon sessions --compact`), a line at a
/// time: `rr` lines become one `packet` line per notification, `nn` lines go, `metrics` lines are
/// kept every `SessionFileLines.metricsStep` seconds, every other line is kept as it is, in the
/// order `SessionFileLines` gives a session recorded as version 2. Only for a file the reader read
/// whole: a line it cannot convert is an error.
public struct SessionFileCompaction {
    private var lines = SessionFileLines()
    private let source: String
    private let storage = ScannedObject.Storage()
    private var number = 0

    public init(source: String) {
        self.source = source
    }

    /// The version 2 lines (each with its newline) for the next line of the file (without its newline).
    public mutating func convert(_ line: UnsafeBufferPointer<UInt8>) throws(RecordingError) -> [String] {
        number += 1
        let text = String(decoding: line, as: UTF8.self) + "\n"
        if number == 1 {
            var header = text
            guard let versionField = header.firstRange(of: #""version":1,"#) else {
                throw RecordingError(source: source, line: 1, problem: "not a version 1 header as hrvmon writes it: left as it is")
            }
            header.replaceSubrange(versionField, with: #""version":2,"#)
            return [header]
        }
        let entry: SessionFileLines.Entry
        do {
            if line.starts(with: Self.rr) {
                entry = .beat(try Self.beat(try fields(line)))
            } else if line.starts(with: Self.nn) {
                entry = .corrected
            } else if line.starts(with: Self.metrics) {
                entry = .metrics(sessionSeconds: try fields(line).double("session_s"))
            } else {
                // A line of an event the pipeline reports while it takes a notification's beats
                // stays with that notification; any other ends it (the steps keep their order).
                if !Self.withinNotification.contains(where: { line.starts(with: $0) }) {
                    return lines.notificationEnded() + [text]
                }
                entry = .other
            }
        } catch {
            throw RecordingError(source: source, line: number, problem: error.reason, hint: error.hint)
        }
        return lines.lines(for: entry) { text }
    }

    /// The lines still held once the last line has been converted.
    public mutating func finish() -> [String] {
        lines.notificationEnded()
    }

    private func fields(_ line: UnsafeBufferPointer<UInt8>) throws(SessionFileReader.LineError) -> ScannedObject {
        guard let scanned = ScannedObject(line, storage: storage) else {
            throw SessionFileReader.LineError(reason: "not written as hrvmon writes its lines: the file is left as it is")
        }
        return scanned
    }

    private static func beat(_ fields: ScannedObject) throws(SessionFileReader.LineError) -> ReceivedBeat {
        let contactName = try fields.string("contact")
        guard let contact = HeartRateMeasurement.SensorContact(name: contactName), let ticks = UInt16(exactly: try fields.int("rr_1024")),
            let heartRate = UInt16(exactly: try fields.int("hr_bpm"))
        else { throw SessionFileReader.LineError(reason: "an rr line out of range") }
        return ReceivedBeat(
            time: try fields.double("t"), received: try fields.double("recv"), packet: try fields.int("pkt"), ticks: ticks,
            heartRate: heartRate, sensorContact: contact, energyExpended: try fields.optionalInt("energy_kj").flatMap(UInt16.init(exactly:)),
            sequence: try fields.int("seq"))
    }

    private static let rr = Array(#"{"type":"rr","#.utf8)
    private static let nn = Array(#"{"type":"nn","#.utf8)
    private static let metrics = Array(#"{"type":"metrics","#.utf8)
    private static let withinNotification = [#"{"type":"stress","#, #"{"type":"activity","#, #"{"type":"suggestion","#, #"{"type":"effect","#]
        .map { Array($0.utf8) }
}
