import Foundation
import TestSupport
import Testing

/// `study sync` (and `show`) over many sessions: a file unchanged since it was sent whole is not
/// read again, one that changed is; a damaged file is named, its resume point kept, the rest sent, exit 1.
@Suite(.serialized) struct StudySyncTests {
    static func path(_ participant: StudyFixture.Participant, _ id: String) -> String {
        participant.home + "/data/hrvmon/sessions/\(id).jsonl"
    }

    /// Runs `touch` (GNU coreutils: nanosecond times through utimensat(2)).
    static func touch(_ arguments: [String]) throws {
        let touch = Process()
        touch.executableURL = URL(fileURLWithPath: "/usr/bin/touch")
        touch.arguments = arguments
        try touch.run()
        touch.waitUntilExit()
        #expect(touch.terminationStatus == 0)
    }

    /// Writes `bytes` at `offset` of the file in place: the same inode, and here the same size.
    static func overwrite(_ path: String, at offset: UInt64, with bytes: Data) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: offset)
        handle.write(bytes)
        try handle.close()
    }

    @Test func aSessionUnchangedSinceItWasSentIsNotReadAgainAndOneAppendedToIs() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1, offering: "checkins,notes,events").first)
        try StudyCheckInTests.report(participant)
        let id = try #require(participant.sessionIDs.last)
        let path = Self.path(participant, id)
        let start = try StudyTimeShiftTests.localField(participant, id, type: "session")
        // A line of a type hrvmon does not know (skipped when read) that one byte turns into a note.
        let unknown = #"{"type":"xnote","t":\#(start + 90),"text":"later"}"# + "\n"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        handle.write(Data(unknown.utf8))
        try handle.close()
        let first = try participant.run(["study", "sync"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try study.serverRows("notes", of: participant) == 1 && study.serverRows("episode_labels", of: participant) == 1)

        // Changed in place, its size, modification time and inode as they were: not read again,
        // so the note it now holds is not sent.
        let reference = path + ".times"
        try Self.touch(["-r", path, reference])
        defer { try? FileManager.default.removeItem(atPath: reference) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64)
        try Self.overwrite(path, at: size - UInt64(unknown.utf8.count), with: Data((#"{"type":"note","t":\#(start + 90),"text":"later "}"# + "\n").utf8))
        try Self.touch(["-r", reference, path])
        let unchanged = try participant.run(["study", "sync"])
        #expect(unchanged.status == 0 && unchanged.stdout.contains("nothing to send"), "\(unchanged.stdout) \(unchanged.stderr)")
        #expect(try study.serverRows("notes", of: participant) == 1)

        // An answer appended to the ended session (`label`) changes the file: read again and sent.
        let label = try participant.run(["label", "last:1", "no"])
        #expect(label.status == 0, "\(label.stderr)")
        let appended = try participant.run(["study", "sync"])
        #expect(appended.status == 0, "\(appended.stderr)")
        #expect(try study.serverRows("episode_labels", of: participant) == 2 && study.serverRows("notes", of: participant) == 2)
        let again = try participant.run(["study", "sync"])
        #expect(again.status == 0 && again.stdout.contains("nothing to send"), "\(again.stdout)")
    }

    /// `show` counts a file sent whole from the sent state, as `sync` skips it: damaged in place,
    /// its size, modification time and inode as they were, it is still counted; once its time
    /// moves, it is read, and named as damaged.
    @Test func showCountsASessionSentWholeWithoutReadingIt() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        try participant.record(minutes: 5)
        #expect(try participant.run(["study", "sync"]).status == 0)
        let local = try participant.localBeats()
        let sent = "rr: \(local) beats sent in 1 sessions; waiting: 0 beats"
        let before = try participant.run(["study", "show"])
        #expect(before.status == 0 && before.stdout.contains(sent), "\(before.stdout)")

        let id = try #require(participant.sessionIDs.first)
        let path = Self.path(participant, id) + ".gz"
        let reference = path + ".times"
        try Self.touch(["-r", path, reference])
        defer { try? FileManager.default.removeItem(atPath: reference) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let middle = bytes.count / 2
        try Self.overwrite(path, at: UInt64(middle), with: Data([bytes[middle] ^ 0xFF]))
        try Self.touch(["-r", reference, path])
        let unchanged = try participant.run(["study", "show"])
        #expect(unchanged.status == 0 && unchanged.stdout == before.stdout, "\(unchanged.stdout)")

        try Self.touch([path])
        let read = try participant.run(["study", "show"])
        #expect(read.status == 0 && read.stdout.contains("rr: 0 beats sent in 0 sessions; waiting: 0 beats"), "\(read.stdout)")
        #expect(read.stdout.contains("cannot be read, so neither sent nor counted: \(path):"), "\(read.stdout)")
    }

    /// A session deleted here (`hrvmon delete`) leaves the sent state at the next sync; its beats
    /// stay on the server, and the session kept stays marked sent.
    @Test func aDeletedSessionIsForgottenByTheSentState() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        // 20 minutes at 1000× last 1.2 s at least: the second session starts in another second,
        // so under another id.
        try participant.record(minutes: 20)
        try participant.record(minutes: 20)
        #expect(try participant.run(["study", "sync"]).status == 0)
        let sentFile = participant.home + "/data/hrvmon/study/sent"
        let ids = participant.sessionIDs
        try #require(ids.count == 2)
        let marked = { try String(contentsOfFile: sentFile, encoding: .utf8).split(separator: "\n").map { String($0.prefix { $0 != " " }) } }
        let before = try marked()
        #expect(before == ids, "\(before)")
        let stored = try study.serverBeats(participant)

        let delete = try participant.run(["delete", ids[0], "--yes"])
        #expect(delete.status == 0, "\(delete.stderr)")
        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 0 && sync.stdout.contains("nothing to send"), "\(sync.stdout) \(sync.stderr)")
        let after = try marked()
        #expect(after == [ids[1]], "\(after)")
        #expect(try study.serverBeats(participant) == stored)
    }

    @Test func aDamagedSessionIsNamedItsResumePointKeptTheRestSentAndSyncFails() throws {
        let study = try StudyFixture()
        // rr and notes: a session whose beats were all sent is still read for its notes.
        let participant = try #require(try study.joined(1).first)
        try participant.record(minutes: 5)
        let first = try participant.run(["study", "sync"])
        #expect(first.status == 0, "\(first.stderr)")
        let id = try #require(participant.sessionIDs.first)
        let sentFile = participant.home + "/data/hrvmon/study/sent"
        let sentLine = try #require(try String(contentsOfFile: sentFile, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix(id + " ") })
        try participant.record(minutes: 5)
        // The first session damaged in its middle.
        let text = try participant.sessionText(id)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.insert("this is no JSON", at: lines.count / 2)
        try participant.replaceSession(id, with: lines.joined(separator: "\n"))

        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 1, "\(sync.stdout) \(sync.stderr)")
        let path = Self.path(participant, id)
        #expect(sync.stderr.contains("\(path):\(lines.count / 2 + 1): damaged line"), "\(sync.stderr)")
        #expect(sync.stderr.contains("nothing of this session was sent and where to resume it is kept; repair the file"), "\(sync.stderr)")
        // The other session sent whole; the damaged one's line in the sent state as it was.
        #expect(sync.stdout.contains("sent "), "\(sync.stdout)")
        let sent = try String(contentsOfFile: sentFile, encoding: .utf8).split(separator: "\n")
        #expect(sent.first { $0.hasPrefix(id + " ") }.map { $0.split(separator: " ").prefix(3) } == sentLine.split(separator: " ").prefix(3), "\(sent)")
        #expect(sent.count == 2)

        try participant.replaceSession(id, with: text)
        let repaired = try participant.run(["study", "sync"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        let local = try participant.localBeats()
        let stored = try study.serverBeats(participant)
        #expect(local > 500 && stored.rows == local && stored.distinct == local, "server \(stored), local \(local)")
    }
}
