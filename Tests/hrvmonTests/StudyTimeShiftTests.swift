import Foundation
import TestSupport
import Testing

/// `study create --time-shift` against the real PostgreSQL: each participant's times reach the
/// server moved by their own whole number of weeks, which never leaves their computer; the RR
/// intervals, the gaps and exactly-once sending are as without it.
@Suite(.serialized) struct StudyTimeShiftTests {
    /// The participant's shift in seconds, as `join` kept it in the membership (nil: none).
    static func shift(of participant: StudyFixture.Participant) throws -> Double? {
        let membership = try String(contentsOfFile: participant.home + "/config/hrvmon/study/membership", encoding: .utf8)
        guard let line = membership.split(separator: "\n").first(where: { $0.hasPrefix("time-shift-weeks: ") }) else { return nil }
        let weeks = try #require(Int(line.dropFirst("time-shift-weeks: ".count)))
        return Double(weeks * 7 * 86_400)
    }

    /// The session's beats as the local file holds them (`export --format csv`): seq, time, RR ticks.
    static func localBeats(_ participant: StudyFixture.Participant, _ id: String) throws -> [(seq: Int, t: Double, rr: Int)] {
        let csv = try participant.run(["export", "--session", id, "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        return csv.stdout.split(separator: "\n").dropFirst().compactMap { row in
            let fields = row.split(separator: ",")
            guard fields.count > 2, let t = Double(fields[0]), let seq = Int(fields[1]), let rr = Int(fields[2]) else { return nil }
            return (seq, t, rr)
        }
    }

    /// The same as the server holds them for `participant`, ordered by seq.
    static func serverBeats(_ study: StudyFixture, _ participant: StudyFixture.Participant) throws -> [(session: String, seq: Int, t: Double, rr: Int)] {
        try study.serverColumn("SELECT session, seq, time, rr_ticks FROM hrvmon_study.beats WHERE participant = '\(participant.pseudonym)' ORDER BY seq")
            .compactMap { row in
                let fields = row.split(separator: "|").map(String.init)
                guard fields.count == 4, let seq = Int(fields[1]), let t = Double(fields[2]), let rr = Int(fields[3]) else { return nil }
                return (fields[0], seq, t, rr)
            }
    }

    /// The number `key` (`t`: its time) of the first line of `type` in session `id`.
    /// Read from the number's own digits, correctly rounded (Swift's `Double(_:)`): Foundation's
    /// JSON reader on Linux gives some 17-digit numbers back an ulp off, which an exact comparison
    /// with the server's values would call a difference.
    static func localField(_ participant: StudyFixture.Participant, _ id: String, type: String, _ key: String = "t") throws -> Double {
        let line = try #require(try participant.sessionText(id).split(separator: "\n").first { $0.contains(#""type":"\#(type)""#) })
        let token = try #require(line.firstMatch(of: try Regex<(Substring, Substring)>(#""\#(key)":(-?[0-9][0-9.eE+-]*)"#)), "\(key) in \(line)")
        return try #require(Double(String(token.1)))
    }

    /// Whether the server's `started` is `expected`: the session reader reads a header's time as
    /// Decimal did (SessionFileReaderJSONTests pins it, so analyses of old files stay identical),
    /// which can be an ulp (under a microsecond) off the correctly rounded value; every other time
    /// is compared exactly.
    static func isHeaderTime(_ text: String?, _ expected: Double) -> Bool {
        guard let text, let value = Double(text) else { return false }
        return abs(value - expected) <= expected.ulp
    }

    /// `id` (`YYYYMMDD-HHMMSS`) with its date `days` later.
    static func sessionID(_ id: String, movedBy days: Int) throws -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let date = try #require(formatter.date(from: String(id.prefix(8))))
        return formatter.string(from: date.addingTimeInterval(Double(days) * 86_400)) + id.dropFirst(8)
    }

    @Test func eachParticipantsTimesAreShiftedByTheirOwnWeeksAndNothingElseChanges() throws {
        let before = Date().timeIntervalSince1970
        let study = try StudyFixture()
        let participants = try study.joined(2, offering: "rr,checkins,notes,events", timeShift: true)
        var shifts: [Double] = []
        for participant in participants {
            let sync = try StudyCheckInTests.reportAndSync(participant)
            #expect(sync.stdout.contains("sent 1 note"), "\(sync.stdout)")
            let shift = try #require(try Self.shift(of: participant))
            shifts.append(shift)
            // 100 to 200 years ahead, in whole weeks: the weekday and the time of day are kept.
            #expect(shift >= 5218 * 604_800 && shift <= 10436 * 604_800)
            let id = try #require(participant.sessionIDs.last)
            let shiftedID = try Self.sessionID(id, movedBy: Int(shift / 86_400))
            let local = try Self.localBeats(participant, id)
            let server = try Self.serverBeats(study, participant)
            #expect(local.count > 300 && server.count == local.count)
            // Every beat: its time moved by exactly the shift (as the client adds it), its RR and place unchanged.
            #expect(server.allSatisfy { $0.session == shiftedID }, "\(server.first.map { $0.session } ?? "") vs \(shiftedID)")
            #expect(zip(local, server).allSatisfy { $0.seq == $1.seq && $0.rr == $1.rr && $1.t == $0.t + shift })
            let start = try Self.localField(participant, id, type: "session")
            let end = try Self.localField(participant, id, type: "summary")
            let session = try study.serverColumn(
                "SELECT session || '|' || started || '|' || recorded_until FROM hrvmon_study.sessions WHERE participant = '\(participant.pseudonym)'")
                .map { $0.split(separator: "|").map(String.init) }
            #expect(session.count == 1 && session[0].count == 3 && session[0][0] == shiftedID && session[0][2] == "\(end + shift)", "\(session)")
            #expect(Self.isHeaderTime(session.first?[1], start + shift), "\(session)")
            let note = try study.serverColumn("SELECT session, time FROM hrvmon_study.notes WHERE participant = '\(participant.pseudonym)'")
            #expect(note == ["\(shiftedID)|\(start + 60 + shift)"], "\(note)")
            // Events with a clock time are shifted; an episode's seconds into the session are not.
            let events = try study.serverColumn(
                "SELECT kind || '|' || coalesce(time::text, '') FROM hrvmon_study.events WHERE participant = '\(participant.pseudonym)' ORDER BY kind")
            let link = try Self.localField(participant, id, type: "link"), suggestion = try Self.localField(participant, id, type: "suggestion")
            #expect(events == ["link|\(link + shift)", "stress|", "suggestion|\(suggestion + shift)"], "\(events)")
            let episode = try study.serverColumn("SELECT start_s FROM hrvmon_study.events WHERE participant = '\(participant.pseudonym)' AND kind = 'stress'")
            #expect(episode == ["\(try Self.localField(participant, id, type: "stress", "start_s"))"], "\(episode)")
            let checkIns = try study.serverColumn(
                "SELECT session, time FROM hrvmon_study.checkins WHERE participant = '\(participant.pseudonym)' ORDER BY session DESC")
            #expect(checkIns.first == "\(shiftedID)|\(start + 30 + shift)", "\(checkIns)")
            // The diary's check-in was made during this test: shifted back, it is in the test's time.
            let diary = try #require(checkIns.last.flatMap { Double($0.dropFirst()) })
            #expect(checkIns.last?.hasPrefix("|") == true && (before...Date().timeIntervalSince1970).contains(diary - shift), "\(checkIns)")
            // Sent again: nothing new (the marks are asked for by the shifted id).
            let again = try participant.run(["study", "sync"])
            #expect(again.status == 0 && again.stdout.contains("nothing to send"), "\(again.stdout) \(again.stderr)")
            #expect(try study.serverBeats(participant) == (local.count, local.count))
            #expect(try participant.run(["study", "show"]).stdout.contains("times: the study shifts them"))
            // Joining again with the same invite keeps the shift: what was sent stays where it is.
            #expect(try participant.run(["study", "join", participant.invite, "--accept"]).status == 0)
            #expect(try Self.shift(of: participant) == shift)
        }
        // Two participants, two shifts (the same one would come once in 5219 draws).
        #expect(shifts[0] != shifts[1])
        // The session's start and how far it was recorded moved together: no gap appears.
        let status = try study.researcher(["study", "status", "--database", study.uri, "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2 && rows.allSatisfy { ($0["gaps"] as? [Any])?.isEmpty == true }, "\(status.stdout)")
        // The pulled data set: shifted times, and no real date of consent in participants.tsv.
        let directory = Hrvmon.freshHome()
        let bids = try study.researcher(["study", "pull", "--database", study.uri, "--format", "bids", "-o", directory])
        #expect(bids.status == 0, "\(bids.stderr)")
        let table = try String(contentsOfFile: directory + "/participants.tsv", encoding: .utf8).split(separator: "\n")
        #expect(table.count == 3 && table.dropFirst().allSatisfy { $0.split(separator: "\t")[3] == "n/a" }, "\(table)")
        let scans = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix("_scans.tsv") }
        #expect(scans.count == 2)
        for scan in scans {
            let acquired = try String(contentsOfFile: directory + "/" + scan, encoding: .utf8)
            #expect(acquired.contains("\t21") || acquired.contains("\t22"), "a date 100 to 200 years ahead: \(acquired)")
        }
    }

    /// The false-positive check: a study created without --time-shift sends every time as recorded.
    @Test func withoutTheOptionNothingIsShifted() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1, offering: "rr,notes").first)
        try StudyCheckInTests.reportAndSync(participant)
        #expect(try Self.shift(of: participant) == nil)
        let id = try #require(participant.sessionIDs.last)
        let local = try Self.localBeats(participant, id)
        let server = try Self.serverBeats(study, participant)
        #expect(local.count > 300 && server.count == local.count)
        #expect(zip(local, server).allSatisfy { $0.seq == $1.seq && $0.rr == $1.rr && $0.t == $1.t && $1.session == id })
        let start = try Self.localField(participant, id, type: "session")
        let started = try study.serverColumn("SELECT session || ' ' || started FROM hrvmon_study.sessions")
        #expect(started.count == 1 && Self.isHeaderTime(started.first?.split(separator: " ").last.map(String.init), start), "\(started), local \(id) \(start)")
        #expect(try study.serverColumn("SELECT time FROM hrvmon_study.notes") == ["\(start + 60)"])
        // Joined after the study turned the shift on, a participant would be shifted, the first not:
        // refused once anyone has joined.
        let turned = try study.create(offering: "rr,notes", timeShift: true)
        #expect(turned.status == 2 && turned.stderr.contains("created without --time-shift and participants have joined"), "\(turned.stderr)")
    }
}
