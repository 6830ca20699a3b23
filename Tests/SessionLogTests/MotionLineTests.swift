import HRV
import SessionLog
import Testing

/// The `motion` line (docs/reference/session-files.md): one per second of the strap's
/// accelerometer, read back into `SessionFile.motion`; a damaged one is refused like any line.
@Suite struct MotionLineTests {
    static let header = SessionLineReadingTests.header

    static func read(_ lines: [String]) throws -> SessionFile {
        try SessionFileReader.read(Array(([Self.header] + lines).joined(separator: "\n").utf8) + [0x0A], source: "test")
    }

    @Test func motionLinesAreRead() throws {
        let file = try Self.read([
            #"{"type":"motion","t":1795282905.5,"level":"walking","mg":182.4,"spm":108,"posture":"upright"}"#,
            #"{"type":"motion","t":1795282906.5,"level":"still","mg":6}"#,
        ])
        #expect(file.unknownLines == 0)
        #expect(file.motion.map(\.second) == [
            MotionSecond(level: .walking, intensity: 182.4, cadence: 108, posture: .upright),
            MotionSecond(level: .still, intensity: 6),
        ])
        #expect(file.motion.map(\.time) == [1795282905.5, 1795282906.5])
    }

    @Test func aDamagedMotionLineIsRefusedWithItsReason() {
        #expect(throws: (any Error).self) { try Self.read([#"{"type":"motion","t":1,"level":"running","mg":6}"#]) }
        do {
            _ = try Self.read([#"{"type":"motion","t":1,"level":"still","mg":6,"posture":"sideways"}"#])
            Issue.record("a posture that is not upright or lying was read")
        } catch {
            #expect("\(error)".contains("posture must be upright or lying, not 'sideways'"), "\(error)")
        }
    }
}
