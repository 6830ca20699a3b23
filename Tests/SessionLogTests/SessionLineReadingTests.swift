import HRV
import Recordings
@testable import SessionLog
import Testing

/// The session reader's two ways of reading a line — in place (`ScannedObject`, the lines hrvmon
/// writes) and parsed as JSONSerialization parsed it — and its reading in pieces give the same
/// file, value for value, and the same errors.
@Suite struct SessionLineReadingTests {
    static let header = #"{"type":"session","t":1795282731.2345679,"format":"hrvmon-session","version":1,"program":"hrvmon 0.1.0","id":"20261121-174531","start_local":"2026-11-21T17:45:31+00:00","source":"live","device":{"name":"Polar H10 A1B2C3D4","address":"A0:9E:1A:12:34:56"},"baseline":null,"config":{"window.rmssd_seconds":"60","tip":["a","b"]}}"#

    /// Every kind of line, as hrvmon writes them and as a newer or hand-edited file may have them.
    static let lines = [
        header,
        #"{"type":"link","t":1795282731.3,"state":"connected","detail":"notifications flowing"}"#,
        #"{"type":"sensor","t":1795282731.31,"address":"A0:9E:1A:12:34:56","name":"Polar H10 A1B2C3D4"}"#,
        #"{"type":"rr","t":1795282732.1234567,"recv":1795282732.9,"pkt":1,"seq":1,"rr_1024":800,"rr_ms":781.25,"hr_bpm":75,"contact":"detected","energy_kj":12}"#,
        #"{"type":"rr","t":1795282732.9,"recv":1795282732.9,"pkt":1,"seq":2,"rr_1024":801,"rr_ms":782.2265625,"hr_bpm":75,"contact":"detected"}"#,
        #"{"type":"nn","s":0.78125,"nn_ms":781.25,"class":"normal"}"#,
        #"{"type":"nn","s":1.5634765625,"nn_ms":782.2265625,"class":"ectopic","after_gap":true}"#,
        #"{"type":"metrics","t":1795282732.9000001,"session_s":1.5634765625,"hr_bpm":76.79999999999999,"rmssd_ms":12.345678901234567,"ln_rmssd":2.5133119412788735,"sdnn_ms":null,"pnn50_pct":0,"mean_nn_ms":781.73828125,"corrected_pct":0,"low_quality":false,"filled":false,"state":"unknown","level":null,"z":null,"calibrating":1,"beats":2,"breathing_per_min":null,"dfa_alpha1":null,"coherence":null}"#,
        #"{"type":"rr","t":1795282733.7,"recv":1795282733.7,"pkt":2,"seq":3,"rr_1024":800,"rr_1024":799,"rr_ms":780.2734375,"hr_bpm":76,"contact":"not_detected"}"#,
        #"{"type":"rr","t":1795282734.5, "recv":1795282734.5,"pkt":3,"seq":4,"rr_1024":802,"rr_ms":783.203125,"hr_bpm":76,"contact":"detected"}"#,
        #"{"type":"gap","t":1795282735}"#,
        #"{"type":"error","t":1795282736,"error":"too short","bytes":"10","count":1}"#,
        #"{"type":"motion_seconds","t":1795282733.5,"offset_ms":[0,-12,230],"level":"wms","mg":[150.5,41,3.2],"spm":[104],"posture":"u-l","steps_since":[2,1,0]}"#,
        #"{"type":"note","t":1795282737.5,"text":"coffee \"double\"\n\u00e9\ud83d\ude00"}"#,
        #"{"type":"note","t":1795282738,"text":"tea","text":"green tea",}"#,
        #"{"type":"exercise","t":1795282739,"event":"started","pattern":"6/min","session_s":8}"#,
        #"{"type":"exercise","t":1795282800,"event":"stopped","pattern":"6/min","session_s":69}"#,
        #"{"type":"stress","t":1795282900,"start_s":100,"end_s":160.5,"peak_level":80,"reason":{"rmssd_ms":20.5,"reference_rmssd_ms":40,"rmssd_change_pct":-48.75,"hr_above_rest_bpm":12,"breathing_per_min":null}}"#,
        #"{"type":"activity","t":1795282901,"start_s":161,"end_s":200,"peak_level":null}"#,
        #"{"type":"suggestion","t":1795282902,"session_s":170,"reason":"stress","pattern":"6/min","minutes":3,"tip":"breathe"}"#,
        #"{"type":"effect","t":1795282903,"start_s":8,"end_s":69,"before":{"rmssd_ms":30,"hr_bpm":70,"beats":60},"during":{"rmssd_ms":45.25,"hr_bpm":65,"beats":70},"after":{"rmssd_ms":40,"hr_bpm":66,"beats":120},"coherence":{"mean":0.625,"peak_hz":0.1,"readings":10}}"#,
        #"{"type":"resonance_step","t":1795282904,"session_s":173,"step":0,"bpm":6.5,"step_s":120,"settle_s":30,"inhale_share":0.4}"#,
        #"{"type":"notice","t":1795282905,"message":"re-subscribed"}"#,
        #"{"type":"motion","t":1795282905.5,"level":"walking","mg":182.4,"spm":108,"posture":"upright"}"#,
        #"{"type":"motion","t":1795282905.6,"level":"still","mg":6}"#,
        #"{"type":"future","t":1795282906,"nested":{"a":[1,2,{"b":null}]},"x":1e3}"#,
        #"{"type":"hologram","t":1795282907}"#,
        #"{"type":"rr","t":1795282908.1,"recv":1795282908.1,"pkt":4,"seq":5,"rr_1024":790,"rr_ms":771.484375,"hr_bpm":77,"contact":"detected"}"# + "\r",
        #"{"type":"summary","t":1795282909,"beats":5,"malformed":1,"duration_s":177.8,"rmssd_ms":12.5,"sdnn_ms":20.25,"hr_bpm":76.5,"stress_s":60.5,"exercises":1,"baseline":{"source":"session","resting_hr_bpm":70.5,"ln_rmssd_mean":3.4012,"ln_rmssd_sd":0.25,"samples":40}}"#,
    ]

    static let whole = Array((lines.joined(separator: "\n") + "\n").utf8)

    func read(_ bytes: [UInt8], pieceSize: Int, inPlace: Bool, detail: SessionFileReader.Detail = .full) -> String {
        var text = ""
        do {
            dump(try SessionFileReader.read(bytes, source: "test", detail: detail, pieceSize: pieceSize, readingInPlace: inPlace), to: &text)
        } catch {
            text = "\(error)"
        }
        return text
    }

    @Test(arguments: [1, 2, 3, 17, 100, 1 << 20])
    func inPlaceAndInPiecesReadAsParsedWhole(pieceSize: Int) {
        let torn = Self.whole + Array(#"{"type":"rr","t":17952829"#.utf8)
        let damaged = Array((Self.lines[..<5].joined(separator: "\n") + "\n{\"type\":\"rr\",\"t\":1,}x\n" + Self.lines[5]).utf8)
        // A number beyond Double's range without an exponent: the line is parsed (and refused).
        let huge = Array((Self.lines[..<5].joined(separator: "\n") + "\n{\"type\":\"gap\",\"t\":1" + String(repeating: "0", count: 400) + "}\n").utf8)
        for bytes in [Self.whole, torn, damaged, huge, Array(Self.whole.dropLast()), [], [0x0A]] {
            for detail in [SessionFileReader.Detail.full, .beats, .overview, .metrics] {
                let parsed = read(bytes, pieceSize: bytes.count, inPlace: false, detail: detail)
                #expect(read(bytes, pieceSize: pieceSize, inPlace: true, detail: detail) == parsed)
                #expect(read(bytes, pieceSize: pieceSize, inPlace: false, detail: detail) == parsed)
            }
        }
    }

    /// `.metrics` (for the state before a denied episode): the metrics as `.full` reads them,
    /// no beats.
    @Test func metricsDetailReadsTheMetricsWithoutTheBeats() throws {
        let full = try SessionFileReader.read(Self.whole, source: "test")
        let metrics = try SessionFileReader.read(Self.whole, source: "test", detail: .metrics)
        #expect(!full.metrics.isEmpty && !full.beats.isEmpty)
        #expect(metrics.metrics.map(\.sessionSeconds) == full.metrics.map(\.sessionSeconds) && metrics.metrics.map(\.state) == full.metrics.map(\.state))
        #expect(metrics.beats.isEmpty && metrics.placed.isEmpty)
    }

    @Test func valuesAsWritten() throws {
        let torn = Self.whole + Array(#"{"type":"rr","t":17952829"#.utf8)
        let file = try SessionFileReader.read(torn, source: "test")
        #expect(file.header.start == 1795282731.234568) // through Decimal, as JSONSerialization read it
        #expect(file.header.configuration == "tip = a\ntip = b\nwindow.rmssd_seconds = 60\n")
        #expect(file.beats.map(\.ticks) == [800, 801, 799, 802, 790])
        #expect(file.beats.map(\.contact) == ["detected", "detected", "not_detected", "detected", "detected"])
        #expect(file.placed.map(\.milliseconds) == [781.25, 782.2265625])
        #expect(file.placed.map(\.followsGap) == [false, true])
        #expect(file.metrics.first?.calibrating == true)
        #expect(file.metrics.first?.sdnn == nil)
        #expect(file.notes.map(\.text) == ["coffee \"double\"\n\u{E9}\u{1F600}", "green tea"])
        #expect(file.unknownLines == 2)
        #expect(file.tornLine == Self.lines.count + 1)
        #expect(file.summary?.beats == 5)
        #expect(file.effects.first?.coherence == 0.625)
        #expect(file.episodes.first?.reason?.rmssdChange == -0.4875)
    }

    /// Numbers read in place have JSONNumber's value bit for bit: the whole numbers, the short
    /// decimals correctly rounded, the long ones through Decimal's conversion.
    @Test func numbersAsJSONSerializationReadThem() {
        var tokens = ["0", "-0", "-0.0", "0.000", "1795282731.2345679", "1795282731.23456789", "812.5", "999.0234375",
                      "-41.234567890123456", "123.4500000000000000", "100.00000000000000000", "1e5", "1E5", "-1.5e-3",
                      "12345678901234567890", "-1234567890123456789", "123456789012345678", "0.1", "0.30000000000000004",
                      "9007199254740993.5", "9007199254740993", "0.00000000000000000000000000001234", "18446744073709551615.5",
                      "1" + String(repeating: "0", count: 400), "-1" + String(repeating: "0", count: 307) + ".5"]
        var random = SplitMix(seed: 1)
        for _ in 0..<50_000 {
            var token = random.next() % 4 == 0 ? "-" : ""
            let whole = Int(random.next() % 12) + 1
            token += String(random.next() % 9 + 1)
            for _ in 1..<whole { token += String(random.next() % 10) }
            if random.next() % 5 != 0 {
                token += "."
                for _ in 0...(random.next() % 12) { token += String(random.next() % 10) }
                for _ in 0..<(random.next() % 3) { token += "0" }
            }
            tokens.append(token)
        }
        for token in tokens {
            let expected = JSONNumber(token: Substring(token))
            let value = Array(token.utf8).withUnsafeBufferPointer { NumberToken.value($0) }
            #expect(value?.bitPattern == (expected.isRepresentable ? expected.value.bitPattern : nil), "\(token)")
        }
    }
}

extension SessionLineReadingTests {
    static func fields(_ line: String) -> JSONFields {
        guard case .object(let members)? = JSONValue.parse(ArraySlice(Array(line.utf8))) else { fatalError("not an object: \(line)") }
        return JSONFields(members)
    }

    /// A line that throws part way through its fields leaves nothing of itself behind: the
    /// packet being collected is neither grown nor closed.
    @Test(arguments: [
        #"{"type":"rr","t":2,"recv":1,"pkt":1,"rr_1024":801,"hr_bpm":75,"contact":"detected"}"#,
        #"{"type":"gap"}"#,
        #"{"type":"error","t":"x","bytes":"10"}"#,
        #"{"type":"exercise","t":3,"event":"started","pattern":"6/min"}"#,
        #"{"type":"motion_seconds","t":3,"offset_ms":[0],"level":"s","mg":[5],"posture":"u","steps_since":[2]}"#,
        #"{"type":"motion_seconds","t":3,"offset_ms":[0],"level":"w","mg":[5],"posture":"u","steps_since":[0]}"#,
    ])
    func aLineThatThrowsLeavesTheBuilderAsItWas(failing: String) throws {
        let beats = [#"{"type":"rr","t":1,"recv":1,"pkt":1,"seq":1,"rr_1024":800,"hr_bpm":75,"contact":"detected"}"#,
                     #"{"type":"rr","t":2,"recv":1,"pkt":1,"seq":2,"rr_1024":802,"hr_bpm":75,"contact":"detected"}"#]
        func built(failing: String?) throws -> String {
            var builder = SessionFileBuilder()
            try builder.addHeader(Self.fields(Self.header))
            try builder.add(Self.fields(beats[0]))
            if let failing { #expect(throws: SessionFileReader.LineError.self) { try builder.add(Self.fields(failing)) } }
            try builder.add(Self.fields(beats[1]))
            builder.flushPacket()
            var text = ""
            dump(builder.file, to: &text)
            return text
        }
        #expect(try built(failing: failing) == built(failing: nil))
    }

    /// A line longer than the limit is an error naming it, however the file is cut into pieces
    /// and wherever the line is; a line at the limit is read.
    @Test(arguments: [1, 7, 100, 1 << 20])
    func aLineBeyondTheLimitIsNoSessionLine(pieceSize: Int) {
        let limit = Self.lines.map(\.utf8.count).max()!
        let long = Array((Self.lines[..<3].joined(separator: "\n") + "\n" + String(repeating: "x", count: limit + 1) + "\n" + Self.lines[3]).utf8)
        let unended = Array(repeating: UInt8(ascii: "{"), count: limit * 3)
        for inPlace in [true, false] {
            func read(_ bytes: [UInt8]) -> String {
                do {
                    var text = ""
                    dump(try SessionFileReader.read(
                        bytes, source: "test", detail: .full, pieceSize: pieceSize, readingInPlace: inPlace, lineLimit: LineLimit(bytes: limit)), to: &text)
                    return text
                } catch {
                    return "\(error)"
                }
            }
            #expect(read(long).hasPrefix("test:4: line 4 is longer than \(limit) bytes: not a session file"), "\(read(long))")
            #expect(read(unended).hasPrefix("test:1: line 1 is longer than \(limit) bytes: not a session file"))
            #expect(read(Self.whole) == self.read(Self.whole, pieceSize: pieceSize, inPlace: inPlace))
        }
    }

    @Test func aBlankFirstLineIsSaidToBeBlank() {
        #expect(read(Array(("\n" + Self.header + "\n").utf8), pieceSize: 1 << 20, inPlace: true).hasPrefix("test:1: line 1 is blank: not an hrvmon session file"))
        #expect(read([], pieceSize: 1 << 20, inPlace: true).hasPrefix("test:1: empty file, not an hrvmon session"))
    }
}

/// A small seeded generator (SplitMix64), so the random tokens are the same on every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
