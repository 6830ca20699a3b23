import HRV
import SessionLog
import Testing

/// Session lines read as Foundation's JSONSerialization read them before hrvmon stopped linking
/// Foundation: what it accepted, what it refused, and the numbers it gave.
@Suite struct SessionFileReaderJSONTests {
    static let header = #"{"type":"session","format":"hrvmon-session","version":1,"id":"x","t":1795282731.2345679,"start_local":"-","source":"live","program":"hrvmon"}"#

    func read(_ lines: [[UInt8]]) throws -> SessionFile {
        try SessionFileReader.read(([Array(Self.header.utf8)] + lines).joined(separator: [0x0A]) + [0x0A], source: "test")
    }

    func read(_ lines: String...) throws -> SessionFile { try read(lines.map { Array($0.utf8) }) }

    /// More than 17 characters went through Decimal, whose conversion to Double is not the
    /// correctly rounded one.
    /// A binary file is called binary, where, not echoed back as "not JSON".
    @Test func aBinaryFileIsCalledBinary() {
        do {
            _ = try SessionFileReader.read([0x7B, 0x22, 0x00, 0xFF, 0x10, 0x0A], source: "test.jsonl")
            Issue.record("a binary file was read")
        } catch {
            #expect(error.description == """
                test.jsonl:1: binary data, not text (byte 0x00 at byte offset 2)
                  hint: expected a session file, text (JSON Lines): `hrvmon sessions` lists them
                """)
        }
    }

    @Test func longNumbersAreReadAsDecimalsWere() throws {
        let file = try read()
        #expect(file.header.start == 1795282731.234568)
        #expect(file.header.start != 1795282731.2345679)
    }

    @Test func trailingCommasAndRepeatedKeys() throws {
        let file = try read(#"{"type":"note","t":1e400,"t":2,"text":"a","text":"b",}"#)
        #expect(file.notes.map(\.text) == ["b"])
        #expect(file.notes.map(\.time) == [2])
    }

    @Test func aNumberBeyondDoubleIsNotJSON() {
        #expect(throws: (any Error).self) { try read(#"{"type":"note","t":1e400,"text":"a"}"#, "{}") }
    }

    /// A byte order mark at the start of a string (or after an escape) is dropped; a line may be
    /// UTF-16.
    @Test func byteOrderMarksAndUTF16() throws {
        let note = #"{"type":"note","t":1,"text":"\#u{FEFF}hi\n\#u{FEFF}there"}"#
        let utf16 = Array(#"{"type":"note","t":2,"text":"wide"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let file = try read([Array(note.utf8), utf16])
        #expect(file.notes.map(\.text) == ["hi\nthere", "wide"])
    }
}
