import Foundation
import TestSupport
import Testing

/// Files from outside given to the commands that read them: binary input is called binary (never
/// echoed), an RR recording given to `report` is named for what it is with what to do, and a file
/// in the current directory is a file without "./".
@Suite struct OutsideFilesTests {
    static func directory(_ files: [String: [UInt8]]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, bytes) in files { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    @Test func binaryInputIsCalledBinary() throws {
        let garbage: [UInt8] = [0x26, 0x5E, 0x1A, 0x1F, 0xF3, 0x38, 0x80, 0x40, 0x0A, 0x00, 0x7B]
        let directory = try Self.directory(["x.bin": garbage, "y.bin": [0x7B] + garbage])
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [[String]] = [["analyze", "x.bin"], ["analyze", "y.bin"], ["report", "x.bin"], ["export", "y.bin"], ["baseline", "add", "x.bin"]]
        for arguments in cases {
            let result = try Hrvmon.run(arguments, directory: directory)
            #expect(result.status == 2 && result.stderr.contains("binary data, not text (byte 0x"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(":1: ") && result.stderr.contains("byte offset"), "\(arguments): \(result.stderr)")
            // Nothing of the file comes back: no control bytes and no replacement characters.
            #expect(!result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } && !result.stderr.contains("\u{FFFD}"), "\(arguments): \(result.stderr)")
        }
    }

    /// `report day.txt` (no "./"): the RR recording is recognised, and the hint says what to run,
    /// not what was just refused.
    @Test func reportOfAnRRRecordingSaysWhatToDo() throws {
        let directory = try Self.directory(["day.txt": Array((0..<300).map { "\(800 + $0 % 20)\n" }.joined().utf8)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try Hrvmon.run(["report", "day.txt"], directory: directory)
        #expect(result.status == 2 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("day.txt: an RR recording (300 intervals), not a session"), "\(result.stderr)")
        #expect(result.stderr.contains("hint: `hrvmon analyze day.txt`") && !result.stderr.contains("or an RR file"), "\(result.stderr)")
        // analyze takes it as it is.
        #expect(try Hrvmon.run(["analyze", "day.txt"], directory: directory).status == 0)
        // A name with a dot that names no file is said to be missing, not looked up as an id only.
        let missing = try Hrvmon.run(["report", "night.txt"], directory: directory)
        #expect(missing.status == 2 && missing.stderr.contains("night.txt: no such file"), "\(missing.stderr)")
    }
}
