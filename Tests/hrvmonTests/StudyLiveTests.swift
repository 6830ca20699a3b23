import Foundation
import TestSupport
import Testing

/// A joined participant's `monitor` sends the session as it records it (on its event loop), and
/// whatever it could not send — killed, or the server away — arrives later, every beat once.
@Suite(.serialized) struct StudyLiveTests {
    /// `monitor` in the participant's home against the fake bluetoothd, streaming.
    static func monitor(_ fake: FakeBluetooth, _ participant: StudyFixture.Participant) throws -> LiveProcess {
        try LiveProcess.fastLink.write(toFile: participant.home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        let monitor = try LiveProcess(
            ["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl"], environment: fake.environment.merging(participant.environment) { $1 },
            home: participant.home)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        return monitor
    }

    /// `count` packets of three beats each, sent; waits until the monitor printed `total` beats.
    static func send(_ count: Int, to fake: FakeBluetooth, total: Int, in monitor: LiveProcess) throws {
        let packets = (0..<count).map { index in Packet.measurement(rr: [800 + index % 40, 820, 840]) }
        try MonitorCommandTests.send(packets, to: fake, expecting: total, in: monitor)
    }

    /// Waits until the server holds `count` beats of `participant` (sent every few seconds).
    static func awaitServer(_ study: StudyFixture, _ participant: StudyFixture.Participant, beats count: Int, timeout: Double = 180) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while try study.serverBeats(participant).rows < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.5) }
        return try study.serverBeats(participant).rows == count
    }

    @Test func beatsArriveWhileMonitoringAndAKilledMonitorsRestComesWithSync() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        let monitor = try Self.monitor(fake, participant)
        try Self.send(20, to: fake, total: 60, in: monitor)
        #expect(try Self.awaitServer(study, participant, beats: 60), "\(monitor.stderr)")
        #expect(monitor.process.isRunning, "the beats arrived while monitor runs")
        // More beats, then SIGKILL: whatever the monitor had not sent yet, sync sends.
        try Self.send(30, to: fake, total: 150, in: monitor)
        monitor.signal(SIGKILL)
        #expect(monitor.waitForExit(timeout: 30) != nil)
        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try participant.localBeats() == 150)
        #expect(try study.serverBeats(participant) == (150, 150))
    }

    @Test func theServerAwayWhileMonitoringLosesAndDuplicatesNothing() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let server = try PrivatePostgres()
        defer { server.stop() }
        let study = try StudyFixture(server: server)
        let participant = try #require(try study.joined(1).first)
        let monitor = try Self.monitor(fake, participant)
        try Self.send(10, to: fake, total: 30, in: monitor)
        #expect(try Self.awaitServer(study, participant, beats: 30), "\(monitor.stderr)")
        try server.crash()
        try Self.send(10, to: fake, total: 60, in: monitor)
        // Long enough for the monitor to try at least once and fail (it reads every 10 s).
        Thread.sleep(forTimeInterval: 15)
        try Self.send(10, to: fake, total: 90, in: monitor)
        try server.restart()
        try Self.send(10, to: fake, total: 120, in: monitor)
        #expect(try Self.awaitServer(study, participant, beats: 120), "\(monitor.stderr)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 30) == 0, "\(monitor.stderr)")
        // The monitor's output and its session file: every beat, in order, as without a study.
        let expected = (0..<40).flatMap { index in [800 + index % 10, 820, 840] }
        #expect(monitor.beats.count == 120)
        #expect(try participant.localBeats() == 120)
        #expect(monitor.stderr.contains("study: 120 beats sent to the study as they were recorded"), "\(monitor.stderr)")
        #expect(try study.serverBeats(participant) == (120, 120))
        let ticks = try study.server.researcherSQL(
            study.database, "SELECT string_agg(rr_ticks::text, ',' ORDER BY seq) FROM hrvmon_study.beats")
        #expect(ticks.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected.map(String.init).joined(separator: ","))
        let again = try participant.run(["study", "sync"])
        #expect(again.status == 0 && again.stdout.contains("nothing to send"), "\(again.stdout)")
    }

    /// A check-in made while `monitor` records goes into the session and reaches the server while
    /// it runs, when the participant chose checkins; sent later by sync, it is not stored again.
    @Test func aCheckInArrivesWhileMonitoring() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1, offering: "rr,checkins").first)
        // The monitor's notes socket is in its runtime directory (LiveProcess's XDG_RUNTIME_DIR).
        let runtime = participant.home + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let monitor = try Self.monitor(fake, participant)
        try Self.send(10, to: fake, total: 30, in: monitor)
        let checkIn = try Hrvmon.run(["checkin", "--mood", "2", "--doing", "exam"], environment: participant.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(checkIn.status == 0 && !checkIn.stdout.contains("diary"), "\(checkIn.stdout)")
        let deadline = Date().addingTimeInterval(180)
        while try study.serverRows("checkins", of: participant) < 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.5) }
        #expect(try study.serverRows("checkins", of: participant) == 1, "\(monitor.stderr)")
        #expect(monitor.process.isRunning, "the check-in arrived while monitor runs")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit(timeout: 30) == 0, "\(monitor.stderr)")
        #expect(try participant.run(["study", "sync"]).status == 0)
        #expect(try study.serverRows("checkins", of: participant) == 1)
    }

    /// In a study that shifts times, `monitor` sends the beats and a note as it records them,
    /// moved by the participant's shift; killed, then `sync`: every beat once (the server's mark is
    /// asked for by the shifted session id), the note once.
    @Test func aMonitorSendsShiftedTimesAndNotesAsItRecords() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1, offering: "rr,notes", timeShift: true).first)
        let shift = try #require(try StudyTimeShiftTests.shift(of: participant))
        let runtime = participant.home + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let monitor = try Self.monitor(fake, participant)
        try Self.send(10, to: fake, total: 30, in: monitor)
        let note = try Hrvmon.run(["note", "stairs"], environment: participant.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(note.status == 0, "\(note.stderr)")
        try Self.send(10, to: fake, total: 60, in: monitor)
        #expect(try Self.awaitServer(study, participant, beats: 60), "\(monitor.stderr)")
        let deadline = Date().addingTimeInterval(180)
        while try study.serverRows("notes", of: participant) < 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.5) }
        #expect(try study.serverRows("notes", of: participant) == 1, "\(monitor.stderr)")
        #expect(monitor.process.isRunning, "the beats and the note arrived while monitor runs")
        monitor.signal(SIGKILL)
        #expect(monitor.waitForExit(timeout: 30) != nil)
        #expect(try participant.run(["study", "sync"]).status == 0)
        #expect(try study.serverBeats(participant) == (60, 60) && study.serverRows("notes", of: participant) == 1)
        let id = try #require(participant.sessionIDs.last)
        let local = try StudyTimeShiftTests.localBeats(participant, id)
        let server = try StudyTimeShiftTests.serverBeats(study, participant)
        #expect(local.count == 60 && zip(local, server).allSatisfy { $0.seq == $1.seq && $0.rr == $1.rr && $1.t == $0.t + shift })
        #expect(server.first?.session == (try StudyTimeShiftTests.sessionID(id, movedBy: Int(shift / 86_400))))
        let noted = try StudyTimeShiftTests.localField(participant, id, type: "note")
        #expect(try study.serverColumn("SELECT text || '|' || time FROM hrvmon_study.notes") == ["stairs|\(noted + shift)"])
    }

    /// `check` records its session as monitor does and sends it as it records: the beats on the
    /// server before it ends, all of them once it has, none twice; `sessions` lists it, `analyze`
    /// replays it.
    @Test func aChecksBeatsArriveExactlyOnce() throws {
        let fake = try FakeBluetooth()
        defer { fake.stop() }
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        try LiveProcess.fastLink.write(toFile: participant.home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        let check = try LiveProcess(
            ["check", "--device", FakeBluetooth.polar, "--minutes", "1", "--format", "json"],
            environment: fake.environment.merging(participant.environment) { $1 }.merging(CheckCommandTests.environment) { $1 }, home: participant.home)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        // The settling half minute first; its beats reach the server while the check goes on.
        let ticks = CheckCommandTests.ticks
        var elapsed = 0.0
        let settling = Array(ticks.prefix { tick in
            defer { elapsed += Double(tick) / 1024 }
            return elapsed < 20
        })
        try CheckCommandTests.send(seconds: 20, to: fake, from: settling)
        let deadline = Date().addingTimeInterval(120)
        while try study.serverBeats(participant).rows == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.5) }
        #expect(try study.serverBeats(participant).rows > 0 && check.process.isRunning, "\(check.stderr)")
        try CheckCommandTests.send(seconds: 70, to: fake, from: Array(ticks.dropFirst(settling.count)))
        #expect(check.waitForExit(timeout: 60) == 0, "\(check.stderr)")
        #expect(check.stderr.contains("beats sent to the study as they were recorded"), "\(check.stderr)")
        let sessions = try participant.run(["sessions", "--format", "json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1, "\(sessions.stdout)")
        let local = try participant.localBeats()
        let stored = try study.serverBeats(participant)
        #expect(local > 60 && stored == (local, local), "server \(stored), local \(local)")
        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 0 && sync.stdout.contains("nothing to send"), "\(sync.stdout)")
        #expect(try study.serverBeats(participant) == (local, local))
        let id = try #require(participant.sessionIDs.first)
        let analyze = try participant.run(["analyze", id, "--format", "json"])
        #expect(analyze.status == 0, "\(analyze.stderr)")
    }
}
