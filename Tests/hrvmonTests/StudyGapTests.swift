import Foundation
import TestSupport
import Testing

/// `status` shows where a participant's recording has no beats on the server (a strap that lost
/// its link, a session not sent in full), and two syncs at once store every beat once.
@Suite(.serialized) struct StudyGapTests {
    /// The researcher's `status --format json`, the object of `participant`.
    static func status(_ study: StudyFixture, _ participant: StudyFixture.Participant) throws -> [String: Any] {
        let status = try study.researcher(["study", "status", "--database", study.uri, "--format", "json"])
        #expect(status.status == 0, "\(status.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        return try #require(list.first { $0["participant"] as? String == participant.pseudonym })
    }

    static func gapSeconds(_ object: [String: Any]) -> [Double] {
        (object["gaps"] as? [[String: Any]] ?? []).compactMap { $0["seconds"] as? Double }
    }

    /// Records a session of 40 minutes whose strap lost its link in minutes 10–30 (its packet
    /// lines left out, as a link loss leaves them out); its id.
    static func recordWithALinkLoss(_ participant: StudyFixture.Participant) throws -> String {
        try participant.record(minutes: 40)
        let session = try #require(participant.sessionIDs.last)
        let lines = try participant.sessionText(session).split(separator: "\n", omittingEmptySubsequences: false)
        let header = try #require(LiveProcess.parse(String(lines[0])))
        let start = try #require(header["t"] as? Double)
        // The demo's strap streams motion too, whose lines place their seconds among the packets
        // (`steps_since`): a file with packets cut out keeps none, as if from a strap without it.
        let kept = lines.filter { line in
            if line.hasPrefix(#"{"type":"motion_seconds","#) { return false }
            guard line.hasPrefix(#"{"type":"packet","#), let time = LiveProcess.parse(String(line))?["t"] as? Double else { return true }
            return time < start + 600 || time >= start + 1800
        }
        #expect(kept.count < lines.count - 1000)
        try participant.replaceSession(session, with: kept.joined(separator: "\n"))
        return session
    }

    /// A session whose strap lost its link for 20 minutes (its packet lines of minutes 10–30 left
    /// out, as a link loss leaves them out), another recorded in full: one gap of 20 minutes.
    @Test func aLinkLossIsAGapAndAWholeSessionIsNone() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        let session = try Self.recordWithALinkLoss(participant)
        try participant.record(minutes: 5)
        #expect(try participant.run(["study", "sync"]).status == 0)

        let status = try Self.status(study, participant)
        let gaps = Self.gapSeconds(status)
        #expect(gaps.count == 1, "\(status)")
        #expect(gaps.allSatisfy { $0 >= 1190 && $0 <= 1210 }, "\(gaps)")
        #expect((status["gaps"] as? [[String: Any]])?.first?["session"] as? String == session)
        let text = try study.researcher(["study", "status", "--database", study.uri])
        #expect(text.stdout.contains("1: 0.3 h"), "\(text.stdout)")
    }

    /// A sync killed after its first batch: the session's rest is a gap until it is sent.
    @Test func aSessionNotSentInFullIsAGapUntilItIs() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        try participant.record(minutes: 60)
        let session = try #require(participant.sessionIDs.first)
        let held = try StudyFaultTests.HeldBatch(study, participant, session: session)
        let sync = try LiveProcess(["study", "sync"], environment: participant.environment, home: participant.home)
        try StudyFaultTests().awaitFirstBatch(study, participant)
        sync.signal(SIGKILL)
        #expect(sync.waitForExit(timeout: 30) != nil)
        held.release()
        // The held batch made the session's row itself, with no start: the session's own.
        let header = try participant.sessionText(session).split(separator: "\n").first.map(String.init)
        let start = try #require(header.flatMap(LiveProcess.parse)?["t"] as? Double)
        _ = try study.server.researcherSQL(study.database, "UPDATE hrvmon_study.sessions SET started = \(start)")

        let partial = try Self.status(study, participant)
        // The batch held on its way may still have committed (its statement outlived its
        // client): what matters is that the rest of the hour is missing, and shown.
        let local = try participant.localBeats()
        #expect((partial["beats"] as? Int ?? 0) < local)
        #expect(partial["beats_recorded"] as? Int == local)
        let gaps = try #require(partial["gaps"] as? [[String: Any]])
        #expect(gaps.count == 1 && (gaps.first?["seconds"] as? Double ?? 0) >= 300, "the hour's last part, not sent: \(partial)")
        #expect((gaps.first?["to"] as? String)?.hasSuffix("Z") == true, "\(gaps)")
        #expect(try participant.run(["study", "sync"]).status == 0)
        #expect(Self.gapSeconds(try Self.status(study, participant)).isEmpty)
    }

    /// Two syncs of one participant at once (a timer's and one by hand): the server's key
    /// (participant, session, sequence number) stores each beat once whoever sends it first;
    /// both end well, and the sent state, written under a lock, says nothing waits.
    @Test func twoSyncsAtOnceStoreEveryBeatOnce() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1).first)
        try participant.record(minutes: 60)
        try participant.record(minutes: 30)
        let syncs = try (0..<2).map { _ in try LiveProcess(["study", "sync"], environment: participant.environment, home: participant.home) }
        for sync in syncs { #expect(sync.waitForExit(timeout: 120) == 0, "\(sync.stderr)") }
        let local = try participant.localBeats()
        #expect(local > 5000)
        #expect(try study.serverBeats(participant) == (local, local))
        let show = try participant.run(["study", "show"])
        #expect(show.stdout.contains("rr: \(local) beats sent") && show.stdout.contains("waiting: 0 beats"), "\(show.stdout)")
    }
}
