import SessionLog
import Testing

/// The `ecg` line (docs/reference/session-files.md): the strap's ECG, two seconds or so to a line,
/// the first sample's time to the microsecond, the spacing in nanoseconds and the samples in µV
/// delta-coded; read back sample for sample, at their times.
@Suite struct ECGLineTests {
    static let header = MotionSecondsLineTests.header

    /// Frames of 73 samples at ~130 Hz as the strap sends them, each placed a little off where
    /// the one before ended (up to a fifth of a spacing), `seconds` long from `start`.
    static func frames(from start: Double, seconds: Double, value: (Int) -> Int32 = { Int32($0 % 97 * 13 - 600) }) -> [ECGSamples] {
        var runs: [ECGSamples] = []
        var index = 0
        while Double(index) / 130 < seconds {
            let jitter = Double([0, 1, -1, 2][runs.count % 4]) * 0.0003
            runs.append(ECGSamples(start: start + Double(index) / 130 + jitter, rate: 130, microvolts: (index..<index + 73).map(value)))
            index += 73
        }
        return runs
    }

    static func read(_ text: String, detail: SessionFileReader.Detail = .full) throws -> SessionFile {
        try SessionFileReader.read(Array((header + "\n" + text).utf8), source: "test", detail: detail)
    }

    /// Every sample reads back in order, each within a millisecond of where it was placed; a line
    /// is written as soon as it holds two seconds, so only the last two seconds wait for the end.
    @Test func samplesReadBackInOrderAtTheirTimes() throws {
        var lines = SessionFileLines()
        let runs = Self.frames(from: 1_795_282_731.234567, seconds: 30)
        var text = ""
        for run in runs { text += lines.ecg(run) }
        let written = try Self.read(text).ecg.reduce(0) { $0 + $1.microvolts.count }
        let total = runs.reduce(0) { $0 + $1.microvolts.count }
        #expect(total - written > 0 && Double(total - written) / 130 < 2.6, "at most the line under way waits: \(total - written) samples")
        text += lines.finish()
        let file = try Self.read(text)
        #expect(file.ecg.flatMap(\.microvolts) == runs.flatMap(\.microvolts))
        let placed = runs.flatMap(\.times)
        let read = file.ecg.flatMap(\.times)
        #expect(zip(placed, read).allSatisfy { abs($0 - $1) < 0.001 })
        #expect(file.ecg.allSatisfy { $0.microvolts.count >= 260 || $0 == file.ecg.last }, "two seconds to a line")
        #expect(text.split(separator: "\n").count == file.ecg.count)
    }

    /// A run that does not follow on from the samples waiting (a stream started again) ends their
    /// line: the runs read back apart, each at its own start.
    @Test func aRunAfterABreakStartsALine() throws {
        var lines = SessionFileLines()
        var text = ""
        for run in Self.frames(from: 100, seconds: 1) + Self.frames(from: 110, seconds: 1) { text += lines.ecg(run) }
        text += lines.finish()
        let file = try Self.read(text)
        #expect(file.ecg.map(\.start) == [100, 110])
        #expect(file.ecg.map(\.microvolts.count) == [146, 146])
    }

    @Test func aLineIsDeltaCoded() {
        var lines = SessionFileLines()
        #expect(lines.ecg(ECGSamples(start: 100.5, rate: 130, microvolts: [100, 120, 90, -2_000_000])) == "")
        #expect(lines.finish() == #"{"type":"ecg","t":100.500000,"period_ns":7692308,"uv":[100,20,-30,-2000090]}"# + "\n")
    }

    /// Listings and pages of beats do not read the ECG (a day of it is 11 million samples).
    @Test(arguments: [SessionFileReader.Detail.beats, .overview, .metrics])
    func listingsSkipTheECG(detail: SessionFileReader.Detail) throws {
        let text = #"{"type":"ecg","t":100.5,"period_ns":7692308,"uv":[1,2]}"# + "\n" + #"{"type":"packet","t":101,"hr_bpm":60,"rr_1024":[1000]}"# + "\n"
        #expect(try Self.read(text, detail: detail).ecg.isEmpty)
        #expect(try Self.read(text).ecg == [ECGSamples(startMicroseconds: 100_500_000, periodNanoseconds: 7_692_308, microvolts: [1, 3])])
    }

    @Test(arguments: [
        (#""t":100.5,"period_ns":7692308,"uv":[]"#, "uv is empty: an ecg line has its samples"),
        (#""t":100.5,"period_ns":500,"uv":[1]"#, "period_ns 500 is not a sample spacing hrvmon writes (1 to 100 ms)"),
        (#""t":1e13,"period_ns":7692308,"uv":[1]"#, "t 10000000000000.0 is not a time hrvmon writes"),
        (#""t":100.5,"period_ns":7692308,"uv":[2147483647,1]"#, "uv's sample 2 is 2147483648 µV, beyond a 32-bit sample"),
        (#""t":100.5,"period_ns":7692308,"uv":[1,0.5]"#, "\"uv\" must be a list of whole numbers"),
        (#""t":100.5,"uv":[1]"#, "\"period_ns\" must be"),
    ])
    func aDamagedLineIsRefusedWithItsReason(fields: String, reason: String) {
        do {
            _ = try MotionLineTests.read([#"{"type":"ecg","# + fields + "}", #"{"type":"packet","t":101,"hr_bpm":60,"rr_1024":[1000]}"#])
            Issue.record("read: \(fields)")
        } catch {
            #expect("\(error)".contains("test:2: " + reason), "\(error)")
        }
    }
}
