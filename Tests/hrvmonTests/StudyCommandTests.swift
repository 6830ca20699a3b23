import Foundation
import TestSupport
import Testing

/// `hrvmon study` against a real PostgreSQL 15: a study set up, participants invited and joined,
/// their sessions sent exactly once, and connections that are not TLS to the study's CA refused.
@Suite(.serialized) struct StudyCommandTests {
    let study: StudyFixture

    init() throws { study = try StudyFixture() }

    @Test func createTwiceIsHarmlessAndANewConsentIsANewVersion() throws {
        let first = try study.create()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("created study 'Sleep and stress 2027', consent version 1"))
        let second = try study.create()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("already set up: study 'Sleep and stress 2027', consent version 1"))
        let amended = try study.create(consent: StudyFixture.consent + "Amended: also your notes.\n")
        #expect(amended.stdout.contains("consent version 2"))
        let versions = try study.server.researcherSQL(study.database, "SELECT version || ':' || sha256 FROM hrvmon_study.consent_versions ORDER BY 1")
        let expected = StudyFixture.consent.data(using: .utf8)!
        #expect(versions.stdout.split(separator: "\n").count == 2)
        #expect(versions.stdout.hasPrefix("1:" + SHA256Reference.hex(expected)))
    }

    @Test func createRefusesADatabaseHoldingSomethingElseOrAnotherStudy() throws {
        let consent = try Hrvmon.temporaryFile(StudyFixture.consent, name: "consent.txt")
        let other = try study.researcher(["study", "create", "--database", study.server.researcherURI("other"), "--name", "X", "--consent", consent.path])
        #expect(other.status == 2)
        #expect(other.stderr.contains("public.invoices"), "\(other.stderr)")
        #expect(try study.create().status == 0)
        let renamed = try study.create(name: "Another study")
        #expect(renamed.status == 2)
        #expect(renamed.stderr.contains("holds the study 'Sleep and stress 2027'"))
    }

    /// A study set up by an earlier hrvmon (format 1: beats only; 2: check-ins too) gets the
    /// tables and the time-shift setting of format 3 when `create` runs again, with their grants
    /// and row-level security: its participants can then send notes and events.
    /// What format 6 added (times a clock can read, a consent's categories the study's, erasing
    /// through `erase_own` instead of DELETE), taken away.
    static let formatFive = """
        ALTER TABLE hrvmon_study.sessions DROP CONSTRAINT dated; ALTER TABLE hrvmon_study.beats DROP CONSTRAINT dated;
        ALTER TABLE hrvmon_study.checkins DROP CONSTRAINT dated; ALTER TABLE hrvmon_study.episode_labels DROP CONSTRAINT dated;
        ALTER TABLE hrvmon_study.notes DROP CONSTRAINT dated; ALTER TABLE hrvmon_study.events DROP CONSTRAINT dated;
        DROP FUNCTION hrvmon_study.erase_own(text);
        DO $$ BEGIN
            EXECUTE format('ALTER POLICY own_consents ON hrvmon_study.consents WITH CHECK (participant = current_user AND current_user <> %L)',
                (SELECT participant_role FROM hrvmon_study.study));
            EXECUTE format('GRANT DELETE ON hrvmon_study.sessions, hrvmon_study.beats, hrvmon_study.checkins, hrvmon_study.episode_labels,
                hrvmon_study.notes, hrvmon_study.events TO %I', (SELECT participant_role FROM hrvmon_study.study));
        END $$;
        UPDATE hrvmon_study.study SET format = 5;
        """
    /// What formats 5 and 6 added (format 5: INSERT only of the columns hrvmon sends, no rows of
    /// the group role's own, a consent to a text the study holds), taken away.
    static let formatFour = formatFive + """
        DO $$ BEGIN EXECUTE format('GRANT INSERT ON hrvmon_study.consents, hrvmon_study.sessions, hrvmon_study.beats,
            hrvmon_study.checkins, hrvmon_study.episode_labels, hrvmon_study.notes, hrvmon_study.events TO %I',
            (SELECT participant_role FROM hrvmon_study.study)); END $$;
        ALTER POLICY own_consents ON hrvmon_study.consents WITH CHECK (participant = current_user);
        ALTER POLICY own_sessions ON hrvmon_study.sessions USING (participant = current_user) WITH CHECK (participant = current_user);
        ALTER POLICY own_beats ON hrvmon_study.beats USING (participant = current_user) WITH CHECK (participant = current_user);
        ALTER POLICY own_checkins ON hrvmon_study.checkins USING (participant = current_user) WITH CHECK (participant = current_user);
        ALTER POLICY own_labels ON hrvmon_study.episode_labels USING (participant = current_user) WITH CHECK (participant = current_user);
        ALTER POLICY own_notes ON hrvmon_study.notes USING (participant = current_user) WITH CHECK (participant = current_user);
        ALTER POLICY own_events ON hrvmon_study.events USING (participant = current_user) WITH CHECK (participant = current_user);
        ALTER TABLE hrvmon_study.consents DROP CONSTRAINT consented_text;
        ALTER TABLE hrvmon_study.consent_versions DROP CONSTRAINT version_and_text;
        UPDATE hrvmon_study.study SET format = 4;
        """
    /// What formats 4 to 6 added (format 4: the beats counted per session, the gaps between them), taken away.
    static let formatThree = formatFour + """
        DROP TRIGGER beats_added ON hrvmon_study.beats; DROP TRIGGER beats_removed ON hrvmon_study.beats;
        DROP FUNCTION hrvmon_study.beats_added(), hrvmon_study.beats_removed(), hrvmon_study.find_gaps(name, text, integer, integer);
        DROP TABLE hrvmon_study.beat_gaps;
        ALTER TABLE hrvmon_study.sessions DROP COLUMN beats_received, DROP COLUMN first_beat, DROP COLUMN last_beat, DROP COLUMN last_received;
        UPDATE hrvmon_study.study SET format = 3;
        """
    /// Whether the participants may insert a session's `received` (the server's clock from format
    /// 5) and its `started`.
    static let sessionInsertGrants = """
        SELECT has_column_privilege(participant_role, 'hrvmon_study.sessions', 'received', 'INSERT')::text || ' '
            || has_column_privilege(participant_role, 'hrvmon_study.sessions', 'started', 'INSERT')::text FROM hrvmon_study.study
        """

    @Test(arguments: [1, 2]) func createAgainMigratesAStudyOfAnOlderFormat(format: Int) throws {
        let study = try StudyFixture()
        #expect(try study.create(offering: "rr,checkins,notes,events").status == 0)
        let older = Self.formatThree + (format == 1 ? "DROP TABLE hrvmon_study.checkins, hrvmon_study.episode_labels; " : "")
            + "DROP TABLE hrvmon_study.notes, hrvmon_study.events; ALTER TABLE hrvmon_study.study DROP COLUMN time_shift; "
            + "UPDATE hrvmon_study.study SET format = \(format)"
        #expect(try study.server.researcherSQL(study.database, older).status == 0)
        let participant = try #require(try study.joined(1, offering: "rr,checkins,notes,events").first)
        #expect(try study.serverColumn("SELECT format::text || ' ' || time_shift::text FROM hrvmon_study.study") == ["6 false"])
        let secured = try study.serverColumn(
            "SELECT count(*) FROM pg_class WHERE relnamespace = 'hrvmon_study'::regnamespace AND relrowsecurity AND relname IN ('checkins', 'episode_labels', 'notes', 'events')")
        #expect(secured == ["4"])
        try StudyCheckInTests.reportAndSync(participant)
        #expect(try study.serverRows("checkins", of: participant) == 2 && study.serverRows("notes", of: participant) == 1)
        #expect(try study.serverRows("events", of: participant) == 3)
    }

    /// A study of format 3 holding beats: `create` again counts them per session once, with the
    /// gap between them, and from then on the server counts beats as they arrive and go.
    @Test func createAgainCountsTheBeatsOfAStudyOfFormat3() throws {
        let study = try StudyFixture()
        let participant = try #require(try study.joined(1, offering: "rr,notes", choosing: ["rr"]).first)
        let session = try StudyGapTests.recordWithALinkLoss(participant)
        #expect(try participant.run(["study", "sync"]).status == 0)
        #expect(try study.server.researcherSQL(study.database, Self.formatThree).status == 0)
        #expect(try study.serverColumn(Self.sessionInsertGrants) == ["true true"])
        #expect(try study.create(offering: "rr,notes").status == 0)
        #expect(try study.serverColumn("SELECT format FROM hrvmon_study.study") == ["6"])
        // The counts are the server's from now on: a participant inserts only what it sends.
        #expect(try study.serverColumn(Self.sessionInsertGrants) == ["false true"])
        var status = try StudyGapTests.status(study, participant)
        // Counted as the beats the table holds.
        var stored = try study.serverBeats(participant).rows
        #expect(stored > 1000 && status["beats"] as? Int == stored && status["sessions"] as? Int == 1, "stored \(stored): \(status)")
        var gaps = try #require(status["gaps"] as? [[String: Any]])
        #expect(gaps.count == 1 && gaps.first?["session"] as? String == session, "\(gaps)")
        #expect(StudyGapTests.gapSeconds(status).allSatisfy { $0 >= 1190 && $0 <= 1210 }, "\(gaps)")

        // Sent after the upgrade: counted as they arrive.
        try participant.record(minutes: 5)
        #expect(try participant.run(["study", "sync"]).status == 0)
        status = try StudyGapTests.status(study, participant)
        stored = try study.serverBeats(participant).rows
        #expect(status["beats"] as? Int == stored && status["beats_recorded"] as? Int == stored && status["sessions"] as? Int == 2, "stored \(stored): \(status)")
        gaps = try #require(status["gaps"] as? [[String: Any]])
        #expect(gaps.count == 1, "\(gaps)")
        // Deleted (rr no longer sent): none counted.
        let remove = try participant.run(["study", "categories", "--remove", "rr", "--add", "notes"])
        #expect(remove.status == 0, "\(remove.stderr)")
        status = try StudyGapTests.status(study, participant)
        #expect(status["beats"] as? Int == 0 && status["sessions"] as? Int == 0 && StudyGapTests.gapSeconds(status).isEmpty, "\(status)")
    }

    @Test func aConnectionWithoutTLSOrToAServerOfAnotherCAIsRefused() throws {
        let plain = try study.researcher(["study", "status", "--database", study.uri + "&sslmode=disable"])
        #expect(plain.status == 2)
        #expect(plain.stderr.contains("TLS"), "\(plain.stderr)")
        let wrongCA = try study.researcher(["study", "status", "--database", study.server.researcherURI(study.database, caFile: study.server.otherCAFile)])
        #expect(wrongCA.status == 1)
        #expect(wrongCA.stderr.contains("certificate is not from the study's CA"), "\(wrongCA.stderr)")
        let wrongPassword = try Hrvmon.run(["study", "status", "--database", study.uri], environment: ["PGPASSWORD": "wrong"])
        #expect(wrongPassword.status == 1)
        #expect(wrongPassword.stderr.contains("refused the credential"), "\(wrongPassword.stderr)")
        #expect(!wrongPassword.stderr.contains("cannot reach"))
    }

    @Test func inviteJoinSyncStatusSendEveryBeatExactlyOnce() throws {
        let participants = try study.joined(2)
        for participant in participants {
            let status = try FileManager.default.attributesOfItem(atPath: participant.invite)[.posixPermissions] as? Int
            #expect(status == 0o600)
            let credential = participant.home + "/config/hrvmon/study/invite"
            #expect(try FileManager.default.attributesOfItem(atPath: credential)[.posixPermissions] as? Int == 0o600)
            try participant.record(minutes: 20)
        }
        try participants[0].record(minutes: 5)
        for participant in participants {
            let sync = try participant.run(["study", "sync"])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("sent "))
            let again = try participant.run(["study", "sync"])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.contains("nothing to send"), "\(again.stdout)")
            let local = try participant.localBeats()
            #expect(local > 1000)
            let stored = try study.serverBeats(participant)
            #expect(stored.rows == local && stored.distinct == local, "server \(stored), local \(local)")
            let show = try participant.run(["study", "show"])
            #expect(show.stdout.contains("rr: \(local) beats sent"), "\(show.stdout)")
            #expect(show.stdout.contains("waiting: 0 beats"))
        }
        let status = try study.researcher(["study", "status", "--database", study.uri, "--format", "json"])
        #expect(status.status == 0, "\(status.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(Set(rows.compactMap { $0["participant"] as? String }) == Set(participants.map(\.pseudonym)))
        for row in rows {
            #expect(row["consent_version"] as? Int == 1)
            #expect(row["categories"] as? [String] == ["rr", "notes"])
            #expect(row["withdrawn"] as? Bool == false)
            #expect((row["beats"] as? Int ?? 0) > 1000)
            #expect(row["last_upload"] is String)
        }
    }
    @Test func badInvitesAreToldApartAndNothingToDoExitsZero() throws {
        let participant = try #require(try study.joined(1).first)
        let newcomer = StudyFixture.Participant()
        #expect(try newcomer.run(["study", "sync"]).stdout.contains("not taking part in a study"))
        #expect(try newcomer.run(["study", "show"]).status == 0)
        let text = try String(contentsOfFile: participant.invite, encoding: .utf8)
        let truncated = try Hrvmon.temporaryFile(String(text.prefix(text.count / 2)), name: "cut.invite")
        let cut = try newcomer.run(["study", "join", truncated.path, "--accept"])
        #expect(cut.status == 2 && cut.stderr.contains("truncated or damaged"), "\(cut.stderr)")
        // The same credential with a CA that did not sign the server's certificate.
        let otherCA = try String(contentsOfFile: study.server.otherCAFile, encoding: .utf8)
        let forged = try Hrvmon.temporaryFile(String(text[..<text.range(of: "ca:\n")!.upperBound]) + otherCA, name: "forged.invite")
        let wrongCA = try newcomer.run(["study", "join", forged.path, "--accept"])
        #expect(wrongCA.status == 1 && wrongCA.stderr.contains("not from the study's CA"), "\(wrongCA.stderr)")
        // An invite naming another study than its server holds.
        let renamed = try Hrvmon.temporaryFile(text.replacingOccurrences(of: "study: Sleep and stress 2027\n", with: "study: Another study\n"), name: "renamed.invite")
        let mismatch = try newcomer.run(["study", "join", renamed.path, "--accept"])
        #expect(mismatch.status == 2 && mismatch.stderr.contains("this invite is for the study 'Another study', but its server holds 'Sleep and stress 2027'"), "\(mismatch.stderr)")
        // A second study's invite while taking part in one.
        let second = try StudyFixture(server: study.server)
        let invited = try second.joined(1)
        let again = try participant.run(["study", "join", try #require(invited.first).invite, "--accept"])
        #expect(again.status == 2 && again.stderr.contains("already taking part in the study"), "\(again.stderr)")
        // Off a terminal, joining without --accept is refused rather than assumed.
        let unasked = try newcomer.run(["study", "join", participant.invite])
        #expect(unasked.status == 2 && unasked.stderr.contains("--accept"))
    }

    /// `invite --expires`: the invite says when, the server's role has it as `VALID UNTIL`; past
    /// it, `join` refuses the invite naming the date before connecting, and a credential the
    /// server expired after joining is a refused credential, not an unreachable server.
    @Test func anInviteExpiresOnItsDateAndAnExpiredCredentialIsRefusedNotUnreachable() throws {
        let participant = try #require(try study.joined(1, inviting: ["--expires", "30"]).first)
        let expires = try participant.inviteField("expires")
        let seconds = try #require(Double(expires.prefix { $0 != " " }))
        let inThirtyDays = Date().timeIntervalSince1970 + 30 * 86_400
        #expect(abs(seconds - inThirtyDays) < 600, "\(expires)")
        let validUntil = try study.serverColumn(
            "SELECT extract(epoch FROM rolvaliduntil)::bigint FROM pg_roles WHERE rolname = '\(participant.pseudonym)'")
        #expect(validUntil == [String(Int(seconds))], "\(validUntil)")
        // Unexpired: joined (by the fixture) and sending.
        try participant.record(minutes: 2)
        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 0 && sync.stdout.contains("sent "), "\(sync.stderr)")

        // The same invite with a date in the past: refused before connecting, with the date.
        let text = try String(contentsOfFile: participant.invite, encoding: .utf8)
        let past = text.replacingOccurrences(of: "expires: \(expires)", with: "expires: 1700000000 2023-11-14T22:13:20Z")
        let expired = try Hrvmon.temporaryFile(past, name: "expired.invite")
        let newcomer = StudyFixture.Participant()
        let refused = try newcomer.run(["study", "join", expired.path, "--accept"])
        #expect(refused.status == 2 && refused.stderr.contains("this invite expired on 2023-11-14T22:13:20Z"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: newcomer.home + "/config/hrvmon/study/membership"))

        // Expired on the server after joining: PostgreSQL says only "authentication failed".
        #expect(try study.server.researcherSQL(study.database, "ALTER ROLE \(participant.pseudonym) VALID UNTIL '2001-01-01'").status == 0)
        try participant.record(minutes: 1)
        let late = try participant.run(["study", "sync"])
        #expect(late.status == 1 && late.stderr.contains("refused the credential") && late.stderr.contains("expired or was revoked"), "\(late.stderr)")
        #expect(!late.stderr.contains("cannot reach") && !late.stderr.contains("the invite expired"))
        // The kept invite's own date past too: the refusal names it.
        let kept = participant.home + "/config/hrvmon/study/invite"
        try String(contentsOfFile: kept, encoding: .utf8).replacingOccurrences(of: "expires: \(expires)", with: "expires: 1700000000 2023-11-14T22:13:20Z")
            .write(toFile: kept, atomically: true, encoding: .utf8)
        let lapsed = try participant.run(["study", "sync"])
        #expect(lapsed.status == 1 && lapsed.stderr.contains("refused the credential") && lapsed.stderr.contains("the invite expired on 2023-11-14T22:13:20Z"), "\(lapsed.stderr)")
    }
}

/// SHA-256 as a tool outside hrvmon computes it, to check the consent's recorded hash.
enum SHA256Reference {
    static func hex(_ data: Data) -> String {
        let output = (try? TestChild.run("/usr/bin/sha256sum", [], input: data))?.output ?? Data()
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }
}
