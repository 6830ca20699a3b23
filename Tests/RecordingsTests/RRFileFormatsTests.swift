import HRV
import Testing

@testable import Recordings

/// The exports people have, as those apps write them (layouts from their documentation: Polar
/// Sensor Logger's RR file, HRV Logger's `*_RR_*.csv`), decimal commas in European files, and
/// `--column` for everything else.
@Suite struct RRFileFormatsTests {
    func read(_ text: String, unit: RRUnit = .ms, column: RRColumn? = nil) throws(RecordingError) -> RRRecording {
        try RRFileReader.read(Array(text.utf8), source: "export.txt", unit: unit, column: column)
    }

    func problem(_ text: String, column: RRColumn? = nil) -> String {
        do {
            _ = try read(text, column: column)
            return "read without error"
        } catch {
            return error.description
        }
    }

    static func ms(_ values: [Int]) -> [RRInterval] { values.map(RRInterval.init(milliseconds:)) }

    @Test func polarSensorLogger() throws {
        let recording = try read("Phone timestamp;RR-interval [ms]\n2022-11-23T12:06:22.435;785\n2022-11-23T12:06:23.221;786\n")
        #expect(recording.intervals == Self.ms([785, 786]))
        #expect(recording.layout == .csv(column: "RR-interval [ms]"))
        #expect(recording.unit == .ms)
    }

    @Test func hrvLogger() throws {
        let recording = try read("date,rr,since start\n2025-03-15 09:00:15.123,823,0\n2025-03-15 09:00:15.946,812,823\n")
        #expect(recording.intervals == Self.ms([823, 812]))
        #expect(recording.layout == .csv(column: "rr"))
    }

    /// Header names with the unit in brackets or after a separator, or none; any case. A unit in
    /// the name wins over `--unit`; without one, `--unit` holds.
    @Test(arguments: [
        ("RR (ms)", RRUnit.ms as RRUnit?, "812"), ("RR interval (ms)", .ms, "812"), ("NN (msec)", .ms, "812"),
        ("RR [s]", .s, "0.812"), ("rr_s", .s, "0.812"), ("rr_interval", nil, "812"), ("IBI", nil, "812"), ("RRI", nil, "812"),
    ])
    func headerNames(header: String, named: RRUnit?, value: String) throws {
        let recording = try read("time,\(header)\n0,\(value)\n", unit: named == nil ? .ms : .ticks)
        #expect(recording.intervals == Self.ms([812]), "\(header)")
        #expect(recording.unit == named ?? .ms)
    }

    /// Columns that hold other things are not taken for RR, however close their names.
    @Test(arguments: ["since start", "HR [bpm]", "rr_bpm", "Phone timestamp", "RR (bpm)", "error"])
    func otherColumnsAreNotRR(header: String) {
        #expect(RRHeaderName.unit(of: header) == nil, "\(header)")
    }

    @Test func plainRRKeepsTheUnitAsked() throws {
        #expect(try read("rr\n0.812\n", unit: .s).intervals == Self.ms([812]))
        #expect(try read("rr_ms\n812\n", unit: .s).intervals == Self.ms([812]))
    }

    @Test func decimalCommasInSemicolonAndTabFiles() throws {
        let semicolon = try read("Zeit;RR (ms)\n0;812,5\n1;790,25\n2;801\n")
        #expect(semicolon.intervals == [
            RRInterval(microticks: 8125 * 102_400), RRInterval(microticks: 79025 * 10_240), RRInterval(milliseconds: 801),
        ])
        let tab = try read("t\trr\n0\t812,5\n")
        #expect(tab.intervals == [RRInterval(microticks: 8125 * 102_400)])
        // In a comma file a comma is a delimiter, never a decimal mark.
        #expect(problem("rr\n812,5\n").contains("2 fields (812, 5)"))
        #expect(problem("t;rr\n0;812,5,1\n").contains("'812,5,1' is not a number"))
    }

    @Test func columnByName() throws {
        let text = "Zeit;Intervall\n0;812\n1;790\n"
        #expect(problem(text).contains("no RR column in the header (found: 'Zeit', 'Intervall')"))
        #expect(problem(text).contains("--column"))
        let recording = try read(text, column: .named("intervall"))
        #expect(recording.intervals == Self.ms([812, 790]))
        #expect(recording.layout == .csv(column: "Intervall"))
        #expect(problem(text, column: .named("RR")).contains("--column RR: no such column in the header (found: 'Zeit', 'Intervall')"))
        #expect(problem("812\n790\n", column: .named("rr")).contains("no header line"))
    }

    @Test func columnByPosition() throws {
        #expect(try read("Zeit;Intervall\n0;812\n", column: .position(2)).intervals == Self.ms([812]))
        let headerless = try read("1,812\n2,790\n", column: .position(2))
        #expect(headerless.intervals == Self.ms([812, 790]))
        #expect(headerless.layout == .csv(column: "2"))
        #expect(problem("1,812\n2,790\n", column: .position(3)).contains("--column 3: the first line has 2 fields"))
        #expect(problem("1,812\n2\n", column: .position(2)).contains("1 field (2) where the first line has 2"))
        #expect(problem("a,b\n1,812\n", column: .position(3)).contains("--column 3: the header has 2 columns"))
        // A single-column list is column 1.
        #expect(try read("812\n790\n", column: .position(1)).layout == .list)
    }

    @Test func columnArguments() {
        #expect(RRColumn(argument: "2") == .position(2))
        #expect(RRColumn(argument: " RR (ms) ") == .named("RR (ms)"))
        #expect(RRColumn(argument: "0") == nil)
        #expect(RRColumn(argument: "") == nil)
    }
}

/// Read in pieces, a file gives what it gives read whole: the same intervals and the same errors,
/// wherever the pieces cut its lines.
@Suite struct RRStreamReaderTests {
    static func streamed(_ text: String, pieces: Int, unit: RRUnit = .ms) -> Result<[RRInterval], RecordingError> {
        var reader = RRStreamReader(source: "export.txt", unit: unit)
        var intervals: [RRInterval] = []
        let bytes = Array(text.utf8)
        let size = max(1, bytes.count / pieces)
        do throws(RecordingError) {
            for start in stride(from: 0, to: bytes.count, by: size) {
                try Array(bytes[start..<min(start + size, bytes.count)]).withUnsafeBufferPointer { (piece) throws(RecordingError) in
                    try reader.consume(piece) { intervals.append($0) }
                }
            }
            _ = try reader.finish { intervals.append($0) }
            return .success(intervals)
        } catch {
            return .failure(error)
        }
    }

    static func whole(_ text: String, unit: RRUnit = .ms) -> Result<[RRInterval], RecordingError> {
        Result { () throws(RecordingError) in try RRFileReader.read(Array(text.utf8), source: "export.txt", unit: unit).intervals }
    }

    @Test(arguments: [1, 2, 3, 7, 50, 10_000])
    func piecesGiveWhatTheWholeGives(pieces: Int) throws {
        let values = (0..<2_500).map { 700 + ($0 * 37) % 300 }
        let texts = [
            "\u{FEFF}# export\r\n" + values.map(String.init).joined(separator: "\r\n"),
            "Phone timestamp;RR-interval [ms]\n" + values.map { "2022-11-23T12:00:00.000;\($0),5" }.joined(separator: "\n") + "\n",
            "rr\n" + values.map(String.init).joined(separator: "\n") + "\n800,1\n",
            values.map { String(Double($0) / 1000) }.joined(separator: "\n"),
            "",
        ]
        for text in texts {
            let streamed = Self.streamed(text, pieces: pieces)
            #expect("\(streamed)" == "\(Self.whole(text))", "\(text.prefix(40))")
        }
        #expect(try Self.streamed(texts[0], pieces: pieces).get().count == values.count)
    }

    /// Past the unit's sample, a list file's plain lines take the reader's one-pass path: lines at
    /// its edges (digits either side of the point, the longest numbers, values that round to
    /// nothing, malformed ones) give there what the whole-file reader gives, with LF endings in
    /// pieces of a few bytes and with CRLF endings.
    @Test(arguments: [
        "812.", ".5", "812.5", "0.0001", "0.0004", "0.0005", "3600000", "3600000.001", "3600001",
        "999999999999999999", "9999999999999999999", "123456789012345678.5", "00000000000000000000812",
        "18446744073709552428",  // 2⁶⁴ + 812: read modulo 2⁶⁴ it would be 812
        "812.50000000000000000001", "1.2.3", "812.5.", "-800", "+800", "8 12", "800x", "0", ".", "",
    ])
    func plainLinesAfterTheUnitSampleReadAsTheWholeFileReader(line: String) {
        let text = String(repeating: "800\n", count: RRFileReader.unitSample) + line + "\n801\n"
        let expected = Self.ending(Self.whole(text))
        for pieceBytes in [1, 2, 3, 5, 4096] {
            let pieces = max(1, text.utf8.count / pieceBytes)
            #expect(Self.ending(Self.streamed(text, pieces: pieces)) == expected, "\(line) in \(pieceBytes)-byte pieces")
        }
        let crlf = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        #expect(Self.ending(Self.streamed(crlf, pieces: 3)) == Self.ending(Self.whole(crlf)), "\(line) with CRLF")
    }

    /// How many intervals and the last three (the lines after the sample), or the error.
    static func ending(_ read: Result<[RRInterval], RecordingError>) -> String {
        switch read {
        case .success(let intervals): "\(intervals.count): \(intervals.suffix(3).map(\.microticks))"
        case .failure(let error): "\(error)"
        }
    }

    /// Nothing in a wrong unit is handed on: the first intervals wait for the unit's judgement.
    @Test func nothingIsHandedOnBeforeTheUnitIsJudged() throws {
        var reader = RRStreamReader(source: "seconds.txt")
        var handed = 0
        let seconds = Array(String(repeating: "0.8\n", count: RRFileReader.unitSample - 1).utf8)
        try seconds.withUnsafeBufferPointer { (piece) throws(RecordingError) in try reader.consume(piece) { _ in handed += 1 } }
        #expect(handed == 0)
        #expect(throws: RecordingError.self) {
            try Array("0.8\n".utf8).withUnsafeBufferPointer { (piece) throws(RecordingError) in try reader.consume(piece) { _ in handed += 1 } }
        }
        #expect(handed == 0)
    }
}
