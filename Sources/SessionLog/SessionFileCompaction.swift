import HeartRateProtocol
import Recordings

/// A version 1 session file rewritten as version 2 (`hrvmon sessions --compact`), a line at a
/// time: `rr` lines become one `packet` line per notification, `nn` lines go, `metrics` lines are
/// kept every `SessionFileLines.metricsStep` seconds, every other line is kept as it is, in the
/// order `SessionFileLines` gives a session recorded as version 2. Only for a file the reader read
/// whole: a line it cannot convert is an error.
public struct SessionFileCompaction {
    private var lines = SessionFileLines()
    /// The notification whose `rr` lines are being read: its number, what arrived and when.
    private var packet: (number: Int, measurement: HeartRateMeasurement, time: Double)?
    /// Lines that came between its `rr` lines: written after its packet line, as the recorder
    /// writes a notification's line before what its beats caused.
    private var held: [String] = []
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
        do {
            if line.starts(with: Self.rr) {
                let (notification, beat, time) = try Self.beat(try fields(line))
                var ended: [String] = []
                if packet?.number != notification {
                    ended = notificationEnded()
                    var measurement = beat
                    measurement.rrIntervals = []
                    packet = (notification, measurement, time)
                }
                packet!.measurement.rrIntervals += beat.rrIntervals
                return ended
            }
            if line.starts(with: Self.nn) { return [] }
            if line.starts(with: Self.metrics), !lines.keepsMetrics(at: try fields(line).double("session_s")) { return [] }
        } catch {
            throw RecordingError(source: source, line: number, problem: error.reason, hint: error.hint)
        }
        // A line of an event the pipeline reports while it takes a notification's beats stays
        // with that notification; any other ends it (the steps keep their order).
        if packet != nil, Self.withinNotification.contains(where: { line.starts(with: $0) }) {
            held.append(text)
            return []
        }
        return notificationEnded() + [text]
    }

    /// The lines still held once the last line has been converted.
    public mutating func finish() -> [String] {
        notificationEnded()
    }

    /// The notification's packet line, then the lines held with it.
    private mutating func notificationEnded() -> [String] {
        guard let packet else { return [] }
        let ended = [lines.packet(packet.measurement, at: packet.time)] + held
        self.packet = nil
        held = []
        return ended
    }

    private func fields(_ line: UnsafeBufferPointer<UInt8>) throws(SessionFileReader.LineError) -> ScannedObject {
        guard let scanned = ScannedObject(line, storage: storage) else {
            throw SessionFileReader.LineError(reason: "not written as hrvmon writes its lines: the file is left as it is")
        }
        return scanned
    }

    /// An `rr` line's notification number, the notification with this one beat, and its arrival.
    private static func beat(_ fields: ScannedObject) throws(SessionFileReader.LineError) -> (Int, HeartRateMeasurement, Double) {
        let contactName = try fields.string("contact")
        guard let contact = HeartRateMeasurement.SensorContact(name: contactName), let ticks = UInt16(exactly: try fields.int("rr_1024")),
            let heartRate = UInt16(exactly: try fields.int("hr_bpm"))
        else { throw SessionFileReader.LineError(reason: "an rr line out of range") }
        var measurement = HeartRateMeasurement(
            heartRate: heartRate, sensorContact: contact, energyExpended: try fields.optionalInt("energy_kj").flatMap { UInt16(exactly: $0) })
        measurement.rrIntervals = [ticks]
        return (try fields.int("pkt"), measurement, try fields.exactDouble("recv"))
    }

    private static let rr = Array(#"{"type":"rr","#.utf8)
    private static let nn = Array(#"{"type":"nn","#.utf8)
    private static let metrics = Array(#"{"type":"metrics","#.utf8)
    private static let withinNotification = [#"{"type":"stress","#, #"{"type":"activity","#, #"{"type":"suggestion","#, #"{"type":"effect","#]
        .map { Array($0.utf8) }
}
