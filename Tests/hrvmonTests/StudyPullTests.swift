import Foundation
import TestSupport
import Testing

/// The researcher's pull and erase, the participant's leave and categories, against the real
/// PostgreSQL: what the server holds afterwards is counted by the researcher, not by hrvmon.
@Suite(.serialized) struct StudyPullTests {
    let study: StudyFixture

    init() throws { study = try StudyFixture() }

    /// Every participant's sessions recorded and sent.
    func sent(_ participants: [StudyFixture.Participant], minutes: Int = 3) throws {
        for participant in participants {
            try participant.record(minutes: minutes)
            let sync = try participant.run(["study", "sync"])
            #expect(sync.status == 0 && sync.stdout.contains("sent "), "\(sync.stderr)")
        }
    }

    /// The server's beats of `participants` as `participant,session,seq,rr_ticks` lines, sorted.
    func serverRows(_ participants: [StudyFixture.Participant]) throws -> [String] {
        let names = participants.map { "'\($0.pseudonym)'" }.joined(separator: ",")
        let rows = try study.server.researcherSQL(
            study.database, "SELECT participant || ',' || session || ',' || seq || ',' || rr_ticks FROM hrvmon_study.beats WHERE participant IN (\(names))")
        return rows.stdout.split(separator: "\n").map(String.init).sorted()
    }

    func serverCount(_ sql: String) throws -> Int {
        Int(try study.server.researcherSQL(study.database, sql).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func pullGivesEveryBeatExactlyOfThoseStillInTheStudy() throws {
        let participants = try study.joined(3)
        try sent(participants, minutes: 50)
        let (staying, leaving) = (Array(participants.prefix(2)), participants[2])
        #expect(try leaving.run(["study", "leave", "--yes"]).status == 0)
        let expected = try serverRows(staying)
        // More than one fetch from the cursor (5000 beats each), a session cut between two.
        #expect(expected.count > 5000)
        let directory = Hrvmon.freshHome()

        let jsonl = try study.researcher(["study", "pull", "--database", study.uri, "--format", "jsonl", "-o", directory])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let records = try String(contentsOfFile: directory + "/beats.jsonl", encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let pulled = records.map { "\($0["participant"]!),\($0["session"]!),\($0["seq"]!),\($0["rr_1024"]!)" }.sorted()
        // Compared as counts: on failure the lists would run to thousands of lines.
        #expect(pulled.count == expected.count && Set(pulled).symmetricDifference(expected).count == 0)
        // rr_ms is the strap's 1/1024 s exactly: the integer comes back from it.
        #expect(records.allSatisfy { ($0["rr_ms"] as! Double) * 1024 / 1000 == Double($0["rr_1024"] as! Int) && $0["t"] is Double })
        #expect(try FileManager.default.attributesOfItem(atPath: directory + "/beats.jsonl")[.posixPermissions] as? Int == 0o600)

        let csv = try study.researcher(["study", "pull", "--database", study.uri, "--format", "csv", "-o", directory])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = try String(contentsOfFile: directory + "/beats.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "participant,session,seq,t,rr_1024,rr_ms")
        let rows = lines.dropFirst().map { $0.split(separator: ",") }.map { "\($0[0]),\($0[1]),\($0[2]),\($0[4])" }
        #expect(rows.count == expected.count && Set(rows).symmetricDifference(expected).count == 0)

        let root = directory + "/bids"
        let bids = try study.researcher(["study", "pull", "--database", study.uri, "--format", "bids", "-o", root])
        #expect(bids.status == 0, "\(bids.stderr)")
        let subjects = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix("sub-") }.sorted()
        #expect(subjects == staying.map { "sub-" + $0.pseudonym.replacingOccurrences(of: "_", with: "") }.sorted())
        let table = try String(contentsOfFile: root + "/participants.tsv", encoding: .utf8).split(separator: "\n")
        #expect(table.count == 3 && !table.contains { $0.contains(leaving.pseudonym) })
        let checked = try ReferenceReader.read("bids-validator", root)
        #expect(checked["not_bids"] as? [String] == [] && checked["unmatched"] as? [String] == [], "\(checked)")
        #expect((checked["description"] as? [String: Any])?["Name"] as? String == "Sleep and stress 2027")
        // The events files hold every beat of the sessions, as `export --format bids` writes them.
        let events = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix("_events.tsv") }
        let beats = try events.map { try String(contentsOfFile: root + "/" + $0, encoding: .utf8).split(separator: "\n").filter { $0.contains("\trr\t") }.count }
        #expect(beats.reduce(0, +) == expected.count)
    }

    @Test func leaveWithEraseDeletesEverythingSentAndKeepsTheSessionFiles() throws {
        let participants = try study.joined(2)
        try sent(participants)
        let (leaving, staying) = (participants[0], participants[1])
        let before = try study.serverBeats(leaving).rows
        let kept = try study.serverBeats(staying)
        let files = leaving.home + "/data/hrvmon/sessions"
        let local = try FileManager.default.contentsOfDirectory(atPath: files).sorted().map { try Data(contentsOf: URL(fileURLWithPath: "\(files)/\($0)")) }
        let unasked = try leaving.run(["study", "leave", "--erase"])
        #expect(unasked.status == 2 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")

        let leave = try leaving.run(["study", "leave", "--erase", "--yes"])
        #expect(leave.status == 0, "\(leave.stderr)")
        #expect(leave.stdout.contains("deleted on the server: \(before) beats in 1 session"), "\(leave.stdout)")
        #expect(leave.stdout.contains("asked again, the server holds none"))
        #expect(try study.serverBeats(leaving).rows == 0)
        #expect(try serverCount("SELECT count(*) FROM hrvmon_study.sessions WHERE participant = '\(leaving.pseudonym)'") == 0)
        #expect(try study.serverBeats(staying) == kept)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files).sorted().map { try Data(contentsOf: URL(fileURLWithPath: "\(files)/\($0)")) } == local)

        let status = try study.researcher(["study", "status", "--database", study.uri, "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first { $0["participant"] as? String == leaving.pseudonym }?["withdrawn"] as? Bool == true)
        #expect(rows.first { $0["participant"] as? String == staying.pseudonym }?["withdrawn"] as? Bool == false)
        // Nothing more is sent, said so, and that is no failure.
        try leaving.record(minutes: 2)
        let sync = try leaving.run(["study", "sync"])
        #expect(sync.status == 0 && sync.stdout.contains("you left the study"), "\(sync.stdout)")
        #expect(try study.serverBeats(leaving).rows == 0)
        #expect(try leaving.run(["study", "show"]).stdout.contains("nothing more is sent"))
    }

    @Test func eraseByTheResearcherDeletesOneParticipantAndTheRole() throws {
        let participants = try study.joined(2)
        try sent(participants)
        let (erased, other) = (participants[0], participants[1])
        let beats = try study.serverBeats(erased).rows
        let kept = try study.serverBeats(other)
        let unknown = try study.researcher(["study", "erase", "--database", study.uri, "p_nobody"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no participant 'p_nobody'"), "\(unknown.stderr)")

        let erase = try study.researcher(["study", "erase", "--database", study.uri, erased.pseudonym])
        #expect(erase.status == 0, "\(erase.stderr)")
        #expect(erase.stdout.contains("\(beats) beats, 1 session, 1 consent record"), "\(erase.stdout)")
        let name = erased.pseudonym
        #expect(try serverCount("""
            SELECT (SELECT count(*) FROM hrvmon_study.beats WHERE participant = '\(name)') + (SELECT count(*) FROM hrvmon_study.sessions WHERE participant = '\(name)')
            + (SELECT count(*) FROM hrvmon_study.consents WHERE participant = '\(name)') + (SELECT count(*) FROM hrvmon_study.participants WHERE pseudonym = '\(name)')
            + (SELECT count(*) FROM pg_roles WHERE rolname = '\(name)')
            """) == 0)
        #expect(try study.serverBeats(other) == kept)
        #expect(try serverCount("SELECT count(*) FROM hrvmon_study.consents WHERE participant = '\(other.pseudonym)'") == 1)
        // The erased credential works no more.
        let sync = try erased.run(["study", "sync"])
        #expect(sync.status == 1 && sync.stderr.contains("refused the credential"), "\(sync.stderr)")
    }

    @Test func removingACategoryDeletesItsRowsAndAddingOneCountsFromNow() throws {
        let participant = try #require(try study.joined(1).first)
        try sent([participant])
        let beats = try study.serverBeats(participant).rows
        func categories() throws -> [String]? {
            let status = try study.researcher(["study", "status", "--database", study.uri, "--format", "json"])
            return (try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])?.first?["categories"] as? [String]
        }
        let notes = try participant.run(["study", "categories", "--remove", "notes"])
        #expect(notes.status == 0, "\(notes.stderr)")
        #expect(try categories() == ["rr"] && study.serverBeats(participant).rows == beats)
        let nothing = try participant.run(["study", "categories", "--remove", "rr"])
        #expect(nothing.status == 2 && nothing.stderr.contains("study leave"), "\(nothing.stderr)")
        #expect(try participant.run(["study", "categories", "--add", "notes"]).status == 0)

        let rr = try participant.run(["study", "categories", "--remove", "rr"])
        #expect(rr.status == 0, "\(rr.stderr)")
        #expect(rr.stdout.contains("deleted on the server: \(beats) beats in 1 session"), "\(rr.stdout)")
        #expect(try study.serverBeats(participant).rows == 0 && categories() == ["notes"])
        #expect(try participant.run(["study", "sync"]).stdout.contains("nothing to send"))
        #expect(try study.serverBeats(participant).rows == 0)
        // Added again, rr counts from now: the sessions recorded before are not sent again.
        #expect(try participant.run(["study", "categories", "--add", "rr"]).status == 0)
        #expect(try participant.run(["study", "sync"]).stdout.contains("nothing to send"))
        try sent([participant], minutes: 2)
        let again = try study.serverBeats(participant)
        #expect(again.rows > 0 && again.rows < beats && again.rows == again.distinct)
        let unoffered = try participant.run(["study", "categories", "--add", "events"])
        #expect(unoffered.status == 2 && unoffered.stderr.contains("not offered"), "\(unoffered.stderr)")
    }
}
