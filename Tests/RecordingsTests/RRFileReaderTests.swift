import HRV
import Simulation
import Testing

@testable import Recordings

@Suite struct RRFileReaderTests {
    func read(_ text: String, unit: RRUnit = .ms) throws(RecordingError) -> RRRecording {
        try RRFileReader.read(Array(text.utf8), source: "test.txt", unit: unit)
    }

    func error(_ text: String, unit: RRUnit = .ms) -> RecordingError? {
        do {
            _ = try read(text, unit: unit)
            return nil
        } catch {
            return error
        }
    }

    @Test func listWithCommentsBlankLinesAndCRLF() throws {
        let recording = try read("# Polar export\r\n812\r\n\r\n  790.5 \r\n# note\n801\n")
        #expect(recording.intervals == [
            RRInterval(milliseconds: 812), RRInterval(microticks: 790_500 * 1024), RRInterval(milliseconds: 801),
        ])
        #expect(recording.layout == .list)
    }

    /// Binary input is called binary, with its line and byte offset, never echoed back; the
    /// same however the file is cut into pieces.
    @Test func binaryInputIsCalledBinary() throws {
        let bytes: [UInt8] = Array("800\n810\n".utf8) + [0x26, 0x5E, 0x1A, 0x1F, 0xF3, 0x38, 0x80, 0x40, 0x0A, 0x00]
        for piece in [1, 3, bytes.count] {
            var reader = RRStreamReader(source: "x.bin")
            let failure: RecordingError? = {
                do {
                    for start in stride(from: 0, to: bytes.count, by: piece) {
                        try Array(bytes[start..<min(start + piece, bytes.count)]).withUnsafeBufferPointer { (buffer) throws(RecordingError) in
                            try reader.consume(buffer) { _ in }
                        }
                    }
                    _ = try reader.finish { _ in }
                    return nil
                } catch {
                    return error as? RecordingError
                }
            }()
            #expect(failure?.line == 3 && failure?.problem == "binary data, not text (byte 0x1A at byte offset 10)", "\(piece): \(String(describing: failure))")
        }
        // A header of garbage too: called binary, not listed as column names.
        let header = try #require(error("time,\u{01}\u{02}rr\n800\n"))
        #expect(header.description.hasPrefix("test.txt:1: binary data, not text (byte 0x01 at byte offset 5)"), "\(header)")
    }

    /// A number too large on the first line is the number it is, as on any later line: no header.
    @Test func anOutOfRangeFirstValueIsNoHeader() {
        for text in ["1e400\n800\n", "800\n1e400\n", "t,rr\n1,1e400\n"] {
            let failure = error(text)
            #expect(failure?.problem == "'1e400' is too large for an RR interval", "\(text): \(String(describing: failure))")
        }
        #expect(error("1e400,800\n")?.problem.contains("header") == false)
    }

    @Test func csvColumnsByName() throws {
        let csv = try read("time,RR,quality\n0.8,800,good\n1.6,\"810\",good\n")
        #expect(csv.intervals == [RRInterval(milliseconds: 800), RRInterval(milliseconds: 810)])
        #expect(csv.layout == .csv(column: "RR"))
        let semicolon = try read("rr_ms;x\n800;1\n")
        #expect(semicolon.intervals == [RRInterval(milliseconds: 800)])
        let ticks = try read("t\trr_1024\n0\t1024\n")
        #expect(ticks.intervals == [RRInterval(ticks: 1024)])
        #expect(ticks.unit == .ticks)
        let seconds = try read("rr_s\n0.8125\n")
        #expect(seconds.intervals == [RRInterval(microticks: 812_500 * 1024)])
    }

    @Test func unitsAreExact() throws {
        #expect(try read("781.25\n").intervals == [RRInterval(ticks: 800)])
        #expect(try read("800\n", unit: .ticks).intervals == [RRInterval(ticks: 800)])
        #expect(try read("0.78125\n", unit: .s).intervals == [RRInterval(ticks: 800)])
        // numpy.savetxt's default format
        #expect(try read("8.125000000000000000e+02\n").intervals == [RRInterval(microticks: 812_500 * 1024)])
        // Below a microtick: rounded to the nearest.
        #expect(try read("800.0000001\n").intervals == [RRInterval(milliseconds: 800)])
    }

    @Test func malformedValuesNameTheLine() {
        #expect(error("800\nabc\n")?.line == 2)
        #expect(error("800\nabc\n")?.problem == "'abc' is not a number")
        #expect(error("800\n0\n")?.line == 2)
        #expect(error("800\n-5\n")?.problem == "RR interval '-5' is not positive")
        #expect(error("800\n12.5.1\n")?.line == 2)
        #expect(error("800\n1e\n")?.line == 2)
        #expect(error("800 810\n")?.line == 1)
        #expect(error("rr,x\n800,1\n810\n")?.problem == "1 field (810) where the header on line 1 has 2 (rr, x)")
        #expect(error("rr,x\n800,1\n810\n")?.hint == "every row needs one value per column, separated by ','")
    }

    @Test func missingColumnListsWhatWasFound() throws {
        let found = try #require(error("time,hr\n1,60\n"))
        #expect(found.line == 1)
        #expect(found.problem == "no RR column in the header (found: 'time', 'hr')")
    }

    @Test func emptyInput() {
        #expect(error("# nothing\n\n")?.problem == "no RR intervals found")
        #expect(error("")?.line == nil)
    }

    @Test func secondsGivenAsMillisecondsGetAHint() throws {
        let found = try #require(error("0.8\n0.81\n0.79\n"))
        #expect(found.hint == "values around 0.8 look like seconds: pass --unit s")
        #expect(found.description.hasPrefix("test.txt: the median RR interval would be 0.8 ms"))
    }

    @Test func singleImplausibleValueIsNotAnError() throws {
        // Flagged later by the corrector as `implausible`, not rejected here.
        #expect(try read("800\n5000\n810\n").intervals.count == 3)
    }

    @Test func utf8ByteOrderMark() throws {
        #expect(try read("\u{FEFF}rr\n800\n").intervals == [RRInterval(milliseconds: 800)])
    }
}

extension DecimalParser {
    static func parse(_ text: [UInt8], scale: Int64) -> Outcome {
        text.withUnsafeBufferPointer { parse($0[...], scale: scale) }
    }
}

@Suite struct DecimalParserTests {
    func parse(_ text: String, scale: Int64 = 1_024_000) -> DecimalParser.Outcome {
        DecimalParser.parse(Array(text.utf8), scale: scale)
    }

    @Test func exactAndRounded() {
        #expect(parse("812") == .value(812 * 1_024_000))
        #expect(parse("+812.") == .value(812 * 1_024_000))
        #expect(parse(".5") == .value(512_000))
        #expect(parse("-1.5") == .value(-1_536_000))
        #expect(parse("1E3", scale: 1) == .value(1000))
        #expect(parse("2.5e-1", scale: 10) == .value(3))  // 2.5 rounds half up
        #expect(parse("1e-400", scale: 1) == .value(0))
        #expect(parse("00000000000000000000000000000000000000000001", scale: 1) == .value(1))
    }

    @Test func rejects() {
        for text in ["", "-", ".", "e5", "1e", "1e+", "1.2.3", "12a", "0x10", "nan", "inf", "1 2"] {
            #expect(parse(text) == .notANumber, "\(text)")
        }
        #expect(parse("1e30") == .tooLarge)
        #expect(parse("99999999999999999999") == .tooLarge)
    }

    @Test func neverTrapsOnArbitraryBytes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array("0123456789.eE+-x ".utf8)
        for _ in 0..<50_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 59)
            var bytes: [UInt8] = []
            var bits = state
            for _ in 0..<length {
                bits = bits &* 6_364_136_223_846_793_005 &+ 1
                bytes.append(alphabet[Int(bits >> 58) % alphabet.count])
            }
            _ = DecimalParser.parse(bytes, scale: 1_024_000_000)
        }
    }
}

@Suite struct RRFileReaderRobustnessTests {
    /// A line beyond the limit is an error as soon as it is, wherever the pieces are cut: a file
    /// without line ends is not gathered in memory to the end.
    @Test(arguments: [1, 3, 64])
    func aLineBeyondTheLimitIsNoRecordingLine(pieceSize: Int) {
        let bytes = Array(("800\n810\n" + String(repeating: "1", count: 21) + "\n").utf8)
        var reader = RRStreamReader(source: "rr.txt")
        reader.lineLimit = LineLimit(bytes: 20)
        var error: RecordingError?
        do {
            for start in stride(from: 0, to: bytes.count, by: pieceSize) {
                try bytes.withUnsafeBufferPointer { buffer throws(RecordingError) in
                    try reader.consume(UnsafeBufferPointer(rebasing: buffer[start..<min(start + pieceSize, bytes.count)])) { _ in }
                }
            }
        } catch let thrown {
            error = thrown
        }
        #expect(error?.description.hasPrefix("rr.txt:3: line 3 is longer than 20 bytes: not an RR recording") == true, "\(String(describing: error))")
    }

    @Test func boundsKeepSumsFarFromOverflow() throws {
        let hour = try #require(RRFileReaderTests().error("800\n3600000.001\n"))
        #expect(hour.problem == "'3600000.001' is too large for an RR interval")
        #expect(hour.line == 2)
        // 9 × 10^12 ms would overflow the timeline after two values.
        #expect(RRFileReaderTests().error("9000000000000\n")?.line == 1)
        // 366 days and one hour, after enough heartbeats for the unit to be judged ms.
        let year = String(repeating: "800\n", count: RRFileReader.unitSample) + String(repeating: "3600000\n", count: 8_785)
        let tooLong = RRFileReaderTests().error(year)
        #expect(tooLong?.problem == "the recording is longer than a year")
        #expect(tooLong?.line == RRFileReader.unitSample + 8_784)
    }

    /// Arbitrary bytes (biased towards digits, separators and newlines) read or fail with a line
    /// number, never trap; whatever reads goes through the pipeline without trapping either.
    @Test func arbitraryBytesNeverTrap() {
        var generator = SeededGenerator(seed: 0x2A37)
        let alphabet = Array("0123456789.,;\t\n\r #-+eEr_ms\"".utf8) + [0xEF, 0xBB, 0xBF, 0x00, 0xFF]
        var read = 0
        for _ in 0..<3_000 {
            let length = Int.random(in: 0..<120, using: &generator)
            let bytes = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            do {
                let recording = try RRFileReader.read(bytes, source: "fuzz")
                read += 1
                var pipeline = HRVPipeline()
                for interval in recording.intervals { pipeline.append(interval) { _ in } }
                pipeline.finish { _ in }
                #expect(pipeline.recording.rawBeats == recording.intervals.count)
            } catch {
                #expect(!error.problem.isEmpty)
            }
        }
        #expect(read > 0)
    }
}
