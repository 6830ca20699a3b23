import Analysis
import Foundation
import Platform
import SessionLog
import TestSupport
import Testing

/// The session index: its entries as the files say, kept while the files stay as they were,
/// made again when one changed, dropped when one went, rebuilt when the index is damaged.
@Suite struct SessionIndexTests {
    static let start = 1_763_719_800.0

    /// A directory with the index's place and a session file per fixture.
    private func scratch(_ fixtures: [SessionFixture]) throws -> (index: SessionIndex, paths: [String]) {
        let directory = NSTemporaryDirectory() + "session-index-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/sessions", withIntermediateDirectories: true)
        let paths = try fixtures.map { fixture in
            let path = directory + "/sessions/\(fixture.id).jsonl"
            try fixture.text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        return (SessionIndex(directory: directory), paths)
    }

    private func entries(_ index: SessionIndex, _ paths: [String]) -> [IndexedSession] {
        index.entries(of: paths) { Issue.record("\($0)") }
    }

    private var fixtures: [SessionFixture] {
        [
            SessionFixture(id: "20251119-101000", start: Self.start - 2 * 86_400),
            SessionFixture(id: "20251120-101000", start: Self.start - 86_400, tornTail: true),
            SessionFixture(id: "20251121-101000", start: Self.start, summary: false),
        ]
    }

    @Test func entriesAreTheFilesAndReadBackWhole() throws {
        let (index, paths) = try scratch(fixtures)
        let made = entries(index, paths)
        #expect(made.map(\.id) == fixtures.map(\.id))
        let file = try SessionFileReader.read(path: paths[0])
        #expect(made[0].heartRate == file.summary?.heartRate && made[0].stressSeconds == 100 && made[0].ended)
        #expect(made[0].notes.map(\.text) == [SessionFixture.note], "a note with quotes: the line is parsed, not scanned")
        #expect(made[0].monitored.count == 2, "the link loss splits the monitored time")
        #expect(made[0].stressEpisodes.map(\.start) == [100] && made[0].breathing.map(\.end) == [280])
        #expect(made[0].breathing.first?.effect?.coherence == 0.8312)
        #expect(made[1].tornLine != nil)
        #expect(!made[2].ended && made[2].beats == SessionFixture.beats, "no summary: replayed")
        #expect(index.load() == made, "the index holds what was made, every number as it was")
        #expect(entries(index, paths) == made)
    }

    /// What the wearer said is in the entry and read back: an episode's newest answer, check-ins.
    @Test func answersAndCheckInsAreKept() throws {
        let (index, paths) = try scratch([fixtures[0]])
        let said = [
            #"{"type":"checkin","t":\#(Self.start),"mood":2,"mood_words":"low","doing":"exam","where":"library"}"#,
            #"{"type":"label","t":\#(Self.start + 1),"episode":1,"start_s":100,"answer":"yes","via":"command"}"#,
            #"{"type":"label","t":\#(Self.start + 2),"episode":1,"start_s":100,"answer":"no","via":"dashboard"}"#,
        ]
        let handle = try #require(FileHandle(forWritingAtPath: paths[0]))
        handle.seekToEndOfFile()
        handle.write(Data((said.joined(separator: "\n") + "\n").utf8))
        try handle.close()
        let made = entries(index, paths)
        #expect(made[0].stressEpisodes.map(\.answer) == [.no], "the newest answer")
        #expect(made[0].checkIns.map(\.checkIn.doing) == ["exam"] && made[0].checkIns.map(\.checkIn.place) == ["library"])
        #expect(index.load() == made)
    }

    @Test func anEntryStandsWhileItsFileIsUnchanged() throws {
        let (index, paths) = try scratch(fixtures)
        var made = entries(index, paths)
        // Planted in the index only: read back, so the file was not read again.
        made[0].heartRate = 1
        index.update(replacing: [made[0]], dropping: [])
        #expect(entries(index, paths)[0].heartRate == 1)
        // A new ctime, the same contents: the fingerprint is made again, and matches.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: paths[0])
        #expect(entries(index, paths)[0].heartRate == 1)
        #expect(index.load()[0].key.changed == FileSystem.status(paths[0])?.changed, "kept with the new ctime")
    }

    @Test func aChangedFileIsReadAgain() throws {
        let (index, paths) = try scratch(fixtures)
        var made = entries(index, paths)
        made[0].heartRate = 1
        made[1].heartRate = 1
        index.update(replacing: [made[0], made[1]], dropping: [])
        // Touched: a new mtime.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: paths[0])
        // Rewritten to the same size and put back to its old mtime: only the fingerprint tells.
        let times = paths[1] + ".times"
        try Self.touch(["-r", paths[1], times])
        let text = try String(contentsOfFile: paths[1], encoding: .utf8)
        try text.replacingOccurrences(of: "\"rmssd_ms\":38.2,", with: "\"rmssd_ms\":38.3,").write(toFile: paths[1], atomically: false, encoding: .utf8)
        try Self.touch(["-m", "-r", times, paths[1]])
        #expect(try FileSystem.status(paths[1])?.modified == index.load().first { $0.key.path == paths[1] }?.key.modified)
        let again = entries(index, paths)
        #expect(again[0].heartRate == 61.4 && again[1].heartRate == 61.4)
        #expect(again[1].rmssd == 38.3)
        #expect(index.load().first { $0.key.path == paths[1] }?.rmssd == 38.3)
    }

    /// touch(1): times to the nanosecond, as Date cannot set them.
    static func touch(_ arguments: [String]) throws {
        let touch = try Process.run(URL(fileURLWithPath: "/usr/bin/touch"), arguments: arguments)
        touch.waitUntilExit()
        #expect(touch.terminationStatus == 0)
    }

    @Test func entriesOfVanishedFilesAreDropped() throws {
        let (index, paths) = try scratch(fixtures)
        _ = entries(index, paths)
        try FileManager.default.removeItem(atPath: paths[1])
        #expect(entries(index, [paths[0], paths[2]]).count == 2)
        #expect(index.load().map(\.key.path) == [paths[0], paths[2]])
        index.forget([paths[2]])
        #expect(index.load().map(\.key.path) == [paths[0]])
    }

    @Test(arguments: ["cut", "garbled", "version", "empty"])
    func aDamagedIndexIsSetAsideAndRebuilt(damage: String) throws {
        let (index, paths) = try scratch(fixtures)
        let made = entries(index, paths)
        let bytes = try InputFile.read(index.path)
        let damaged: [UInt8] = switch damage {
        case "cut": Array(bytes[..<(bytes.count / 2)])
        case "garbled": Array(bytes[..<200]) + Array("{not json\n".utf8) + Array(bytes[200...])
        case "version": Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"version\":\(IndexedSession.indexVersion)", with: "\"version\":99").utf8)
        default: []
        }
        try Data(damaged).write(to: URL(fileURLWithPath: index.path))
        #expect(entries(index, paths) == made)
        #expect(index.load() == made, "rebuilt")
        #expect(FileManager.default.fileExists(atPath: index.setAsidePath))
    }

    /// `sessions --format json` prints the numbers whole: read back from the index, each must be
    /// the Double that was written, to the last bit.
    @Test func numbersReadBackToTheLastBit() throws {
        let (index, paths) = try scratch([fixtures[0]])
        var entry = entries(index, paths)[0]
        var generator = SystemRandomNumberGenerator()
        var written: [IndexedSession] = []
        for _ in 0..<2000 {
            entry.start = Double.random(in: 1.7e9...1.9e9, using: &generator)
            entry.heartRate = Double.random(in: 30...200, using: &generator)
            entry.rmssd = Double(bitPattern: UInt64.random(in: 0x3FF0_0000_0000_0000...0x4070_0000_0000_0000, using: &generator))
            entry.seconds = Double.random(in: 0...1e6, using: &generator)
            written.append(entry)
        }
        let read = try IndexedSession.parseIndex(IndexedSession.indexBytes(written))
        let differing = zip(written, read).filter { $0.0 != $0.1 }
        #expect(differing.isEmpty, "\(differing.count) of 2000 differ, e.g. \(differing.first.map { "\($0.0.start) \($0.0.heartRate!) \($0.0.rmssd!) \($0.0.seconds) → \($0.1.start) \($0.1.heartRate!) \($0.1.rmssd!) \($0.1.seconds)" } ?? "")")
    }

    @Test func parsingRefusesAnythingButAWholeIndexOfThisVersion() {
        #expect(throws: IndexedSession.IndexError.self) { try IndexedSession.parseIndex(Array("{\"format\":\"hrvmon-session-index\",\"version\":\(IndexedSession.indexVersion + 1)}\n".utf8)) }
        #expect(throws: IndexedSession.IndexError.self) { try IndexedSession.parseIndex(Array("{\"type\":\"note\",\"t\":1,\"text\":\"x\"}\n".utf8)) }
        #expect(throws: IndexedSession.IndexError.self) {
            try IndexedSession.parseIndex(Array("{\"format\":\"hrvmon-session-index\",\"version\":\(IndexedSession.indexVersion)}\n{\"type\":\"note\",\"t\":1,\"text\":\"x\"}\n".utf8))
        }
        #expect((try? IndexedSession.parseIndex(IndexedSession.indexBytes([]))) == [])
    }

    /// A long first listing saves as it goes: by the time it meets the file after the first
    /// batch, the batch is in the index.
    @Test func aLongListingSavesItsEntriesAsItGoes() throws {
        let (index, good) = try scratch((0..<16).map { SessionFixture(id: "202511\(10 + $0)-101000", start: Self.start - Double(16 - $0) * 86_400) })
        let broken = good[0].replacingOccurrences(of: "20251110", with: "20251130")
        try "not a session\n".write(toFile: broken, atomically: false, encoding: .utf8)
        var savedBefore: Int?
        let listed = index.entries(of: good + [broken]) { _ in savedBefore = index.load().count }
        #expect(listed.count == 16 && savedBefore == 16)
    }

    /// Two processes (here threads) updating at once: the lock and the merge keep every entry.
    @Test func concurrentUpdatesLoseNoEntry() throws {
        let (index, paths) = try scratch(fixtures)
        let made = entries(index, paths)
        index.forget(paths)
        let rounds = 100
        let copies = (0..<2).map { side in
            (0..<rounds).map { round in
                var entry = made[side]
                entry.key.path = "/nowhere/\(side)-\(round).jsonl"
                return entry
            }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for entry in copies[side] { index.update(replacing: [entry], dropping: []) }
        }
        let missing = Set(copies.joined().map(\.key.path)).subtracting(index.load().map(\.key.path))
        #expect(missing.isEmpty, "\(missing.count) entries lost")
    }
}
