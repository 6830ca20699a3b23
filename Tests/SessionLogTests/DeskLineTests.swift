import LivePipeline
import SessionLog
import Testing

/// The `desk` line (docs/reference/session-files.md): written when the desk's presence changes,
/// read back as a replay step between the notifications it came between; a damaged one is
/// refused like any line.
@Suite struct DeskLineTests {
    static func read(_ lines: [String]) throws -> SessionFile {
        try SessionFileReader.read(Array(([SessionLineReadingTests.header] + lines).joined(separator: "\n").utf8) + [0x0A], source: "test")
    }

    @Test func theLineIsWrittenAsDocumented() {
        let line = SessionRecords.object(for: .desk(DeskChange(.atDesk, source: "mutter")), at: 1795282905.5)?.serialized
        #expect(line == #"{"type":"desk","t":1795282905.5,"state":"at_desk","source":"mutter"}"#)
    }

    @Test func deskLinesAreStepsBetweenTheirNotifications() throws {
        let file = try Self.read([
            #"{"type":"packet","t":1795282905.0,"hr_bpm":60,"rr_1024":[1024]}"#,
            #"{"type":"desk","t":1795282905.5,"state":"at_desk","source":"mutter"}"#,
            #"{"type":"packet","t":1795282906.0,"hr_bpm":60,"rr_1024":[1024]}"#,
            #"{"type":"desk","t":1795282970.5,"state":"away","source":"mutter"}"#,
        ])
        #expect(file.unknownLines == 0)
        let kinds = file.steps.map { step in
            switch step {
            case .packet: "packet"
            case .desk(let change, let time): "\(change.presence.rawValue) \(change.source) \(time)"
            default: "other"
            }
        }
        #expect(kinds == ["packet", "at_desk mutter 1795282905.5", "packet", "away mutter 1795282970.5"])
    }

    @Test func aDamagedDeskLineIsRefusedWithItsReason() {
        do {
            _ = try Self.read([#"{"type":"desk","t":1,"state":"typing","source":"mutter"}"#])
            Issue.record("a state that is not at_desk, away or unknown was read")
        } catch {
            #expect("\(error)".contains("state must be at_desk, away, unknown, not 'typing'"), "\(error)")
        }
        #expect(throws: (any Error).self) { try Self.read([#"{"type":"desk","t":1,"state":"away"}"#]) }
    }
}
