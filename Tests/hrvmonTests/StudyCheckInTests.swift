import Foundation
import TestSupport
import Testing

/// The `checkins` category against the real PostgreSQL: check-ins (in a session and in the diary)
/// and answers to "Was that stress?" are sent once, only by a participant who chose them, pulled
/// by the researcher, and deleted when the participant stops sending them.
@Suite(.serialized) struct StudyCheckInTests {
    /// A session with a stress episode, a check-in and a note in it and an answer about the
    /// episode (by `hrvmon label`); and a check-in made when no session ran, in the diary.
    static func report(_ participant: StudyFixture.Participant) throws {
        let demo = try participant.run(["demo", "--save", "--speed", "1000", "--scenario", "rest:3m,stress:3m,rest:4m"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let id = try #require(participant.sessionIDs.last)
        let text = try participant.sessionText(id)
        let start = try StudyTimeShiftTests.localField(participant, id, type: "session")
        try participant.replaceSession(
            id, with: text + #"{"type":"checkin","t":\#(start + 30),"mood":2,"doing":"exam","with":"alone"}"# + "\n"
                + #"{"type":"note","t":\#(start + 60),"text":"exam, \"hard\"\tpart"}"# + "\n")
        let label = try participant.run(["label", "last:1", "yes"])
        #expect(label.status == 0, "\(label.stderr)")
        let diary = try participant.run(["checkin", "--mood", "4", "--doing", "Walk, with \"Rex\"", "--where", "park"])
        #expect(diary.status == 0, "\(diary.stderr)")
    }

    /// `report`, then `study sync`; its result.
    @discardableResult
    static func reportAndSync(_ participant: StudyFixture.Participant) throws -> Hrvmon.Result {
        try report(participant)
        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        return sync
    }

    @Test func checkInsAndAnswersAreSentOnceByThoseWhoChoseThemPulledAndRemoved() throws {
        let study = try StudyFixture()
        let participants = try study.joined(2, offering: "rr,checkins", choosing: ["rr,checkins", "rr"])
        let (chooser, other) = (participants[0], participants[1])
        for participant in participants { try Self.reportAndSync(participant) }
        #expect(try study.serverRows("checkins", of: chooser) == 2)
        #expect(try study.serverRows("episode_labels", of: chooser) == 1)
        // Who did not choose checkins sends none of them; both send their beats.
        #expect(try study.serverRows("checkins", of: other) == 0 && study.serverRows("episode_labels", of: other) == 0)
        #expect(try study.serverBeats(chooser).rows > 100 && study.serverBeats(other).rows > 100)
        let label = try study.server.researcherSQL(
            study.database, "SELECT episode || ',' || answer || ',' || (end_s > start_s) FROM hrvmon_study.episode_labels")
        #expect(label.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1,yes,true", "\(label)")
        // Sent again: nothing new, nothing stored twice.
        let again = try chooser.run(["study", "sync"])
        #expect(again.status == 0 && again.stdout.contains("nothing to send"), "\(again.stdout)")
        #expect(try study.serverRows("checkins", of: chooser) == 2 && study.serverRows("episode_labels", of: chooser) == 1)

        let directory = Hrvmon.freshHome()
        for format in ["jsonl", "csv"] {
            let pull = try study.researcher(["study", "pull", "--database", study.uri, "--format", format, "-o", directory])
            #expect(pull.status == 0 && pull.stderr.contains("2 check-ins, 1 answer"), "\(pull.stderr)")
        }
        let checkIns = try String(contentsOfFile: directory + "/checkins.jsonl", encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(checkIns.map { $0["participant"] as? String } == [chooser.pseudonym, chooser.pseudonym])
        #expect(checkIns.map { $0["mood"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) } == [2, 4])
        #expect(checkIns.contains { $0["session"] is NSNull && $0["doing"] as? String == "walk, with \"rex\"" && $0["where"] as? String == "park" })
        let labels = try String(contentsOfFile: directory + "/labels.jsonl", encoding: .utf8)
        #expect(labels.contains(#""answer":"yes""#) && labels.contains(#""via":"command""#), "\(labels)")
        let csv = try String(contentsOfFile: directory + "/checkins.csv", encoding: .utf8)
        #expect(csv.hasPrefix("participant,session,seq,t,mood,doing,with,where\n"))
        #expect(csv.contains(#","walk, with ""rex""","#), "\(csv)")

        let root = directory + "/bids"
        let bids = try study.researcher(["study", "pull", "--database", study.uri, "--format", "bids", "-o", root])
        #expect(bids.status == 0, "\(bids.stderr)")
        let phenotype = try String(contentsOfFile: root + "/phenotype/checkins.tsv", encoding: .utf8).split(separator: "\n")
        #expect(phenotype.count == 3 && phenotype[0] == "participant_id\tsession\tseq\tt\tmood\tdoing\twith\twhere")
        let checked = try ReferenceReader.read("bids-validator", root)
        #expect(checked["not_bids"] as? [String] == [] && checked["unmatched"] as? [String] == [], "\(checked)")

        // Stopping: what was sent of it is deleted, the beats stay, and nothing more is sent.
        let remove = try chooser.run(["study", "categories", "--remove", "checkins"])
        #expect(remove.status == 0 && remove.stdout.contains("2 check-ins, 1 answer"), "\(remove.stdout) \(remove.stderr)")
        #expect(try study.serverRows("checkins", of: chooser) == 0 && study.serverRows("episode_labels", of: chooser) == 0)
        #expect(try study.serverBeats(chooser).rows > 100)
        #expect(try chooser.run(["checkin", "--mood", "3"]).status == 0)
        #expect(try chooser.run(["study", "sync"]).status == 0)
        #expect(try study.serverRows("checkins", of: chooser) == 0)
    }

    /// The `notes` and `events` categories: a session's notes and what it recorded about itself
    /// (here a link change, a suggestion and a stress episode) sent once, only by a participant who
    /// chose them; pulled in each format; deleted when the participant stops sending them.
    @Test func notesAndEventsAreSentOnceByThoseWhoChoseThemPulledAndRemoved() throws {
        let study = try StudyFixture()
        let participants = try study.joined(2, offering: "rr,checkins,notes,events", choosing: ["rr,notes,events", "rr,checkins"])
        let (chooser, other) = (participants[0], participants[1])
        for participant in participants { try Self.reportAndSync(participant) }
        #expect(try study.serverRows("notes", of: chooser) == 1 && study.serverRows("checkins", of: chooser) == 0)
        #expect(try study.serverRows("notes", of: other) == 0 && study.serverRows("checkins", of: other) == 2)
        #expect(try study.serverRows("events", of: other) == 0)
        let events = try study.serverColumn("SELECT kind || ' ' || seq || ' ' || (time IS NOT NULL) || ' ' || coalesce((end_s > start_s)::text, '') FROM hrvmon_study.events ORDER BY kind")
        #expect(events == ["link 1 true ", "stress 1 false true", "suggestion 1 true "], "\(events)")
        let show = try chooser.run(["study", "show"]).stdout
        #expect(show.contains("notes: the notes you make during sessions are sent") && show.contains("events: what your sessions recorded"), "\(show)")
        let again = try chooser.run(["study", "sync"])
        #expect(try again.stdout.contains("nothing to send") && study.serverRows("notes", of: chooser) == 1, "\(again.stdout)")
        #expect(try study.serverRows("events", of: chooser) == 3)

        let directory = Hrvmon.freshHome()
        for format in ["jsonl", "csv"] {
            let pull = try study.researcher(["study", "pull", "--database", study.uri, "--format", format, "-o", directory])
            #expect(pull.status == 0 && pull.stderr.contains("1 note and 3 events to"), "\(pull.stderr)")
        }
        let note = try #require(try JSONSerialization.jsonObject(with: Data(String(contentsOfFile: directory + "/notes.jsonl", encoding: .utf8).utf8)) as? [String: Any])
        #expect(note["participant"] as? String == chooser.pseudonym && note["text"] as? String == "exam, \"hard\"\tpart" && note["seq"] as? Int == 1)
        let csv = try String(contentsOfFile: directory + "/notes.csv", encoding: .utf8)
        #expect(csv.hasPrefix("participant,session,seq,t,text\n") && csv.contains(#","exam, ""hard""\#tpart""#), "\(csv)")
        let pulledEvents = try String(contentsOfFile: directory + "/events.jsonl", encoding: .utf8)
        #expect(pulledEvents.contains(#""kind":"stress""#) && pulledEvents.contains(#""detail":"connected: simulated""#), "\(pulledEvents)")
        #expect(try String(contentsOfFile: directory + "/events.csv", encoding: .utf8).hasPrefix("participant,session,kind,seq,t,start_s,end_s,detail\n"))
        let root = directory + "/bids"
        #expect(try study.researcher(["study", "pull", "--database", study.uri, "--format", "bids", "-o", root]).status == 0)
        let phenotype = try String(contentsOfFile: root + "/phenotype/notes.tsv", encoding: .utf8).split(separator: "\n")
        #expect(phenotype.count == 2 && phenotype[0] == "participant_id\tsession\tseq\tt\ttext" && phenotype[1].hasSuffix("\texam, \"hard\" part"), "\(phenotype)")
        #expect(try String(contentsOfFile: root + "/phenotype/sessionevents.tsv", encoding: .utf8).split(separator: "\n").count == 4)
        let checked = try ReferenceReader.read("bids-validator", root)
        #expect(checked["not_bids"] as? [String] == [] && checked["unmatched"] as? [String] == [], "\(checked)")

        let remove = try chooser.run(["study", "categories", "--remove", "notes,events"])
        #expect(remove.status == 0 && remove.stdout.contains("1 note, 3 events") && remove.stdout.contains("the server holds none of it"), "\(remove.stdout) \(remove.stderr)")
        #expect(try study.serverRows("notes", of: chooser) == 0 && study.serverRows("events", of: chooser) == 0 && study.serverBeats(chooser).rows > 100)
    }

    /// The researcher's erase deletes a participant's check-ins, answers, notes and events with the rest.
    @Test func eraseDeletesTheCheckInsToo() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1, offering: "rr,checkins,notes,events").first)
        try Self.reportAndSync(participant)
        #expect(try study.serverRows("checkins", of: participant) == 2 && study.serverRows("notes", of: participant) == 1)
        let erase = try study.researcher(["study", "erase", "--database", study.uri, participant.pseudonym])
        #expect(erase.status == 0 && erase.stdout.contains("1 consent record, 2 check-ins, 1 answer, 1 note, 3 events and the role deleted"), "\(erase.stdout) \(erase.stderr)")
        #expect(try study.serverRows("checkins", of: participant) == 0 && study.serverRows("episode_labels", of: participant) == 0)
        #expect(try study.serverRows("notes", of: participant) == 0 && study.serverRows("events", of: participant) == 0)
    }
}
