import Foundation
import TestSupport
import Testing

/// What one participant's credential can do to the others, tried with psql (a client other than
/// hrvmon): PostgreSQL itself refuses it, by privilege or by row-level security.
@Suite(.serialized) struct StudyAttackTests {
    @Test func aParticipantsCredentialReachesOnlyItsOwnRows() throws {
        let study = try StudyFixture()
        let participants = try study.joined(2, offering: "rr,checkins,notes,events")
        for participant in participants { try StudyCheckInTests.reportAndSync(participant) }
        let (attacker, victim) = (participants[0], participants[1])
        let victimBeats = try study.serverBeats(victim)
        #expect(victimBeats.rows > 100)
        #expect(try study.serverRows("checkins", of: victim) == 2 && study.serverRows("episode_labels", of: victim) == 1)
        #expect(try study.serverRows("notes", of: victim) == 1 && study.serverRows("events", of: victim) == 3)
        func attempt(_ sql: String) throws -> Hrvmon.Result { try study.sql(as: attacker, sql) }

        // Its own rows: readable (its upload state).
        #expect(try attempt("SELECT count(*) > 0 FROM hrvmon_study.beats").stdout.hasPrefix("t"))
        // Reading another's rows: row-level security shows none of them.
        let read = try attempt("SELECT count(*) FROM hrvmon_study.beats WHERE participant = '\(victim.pseudonym)'")
        #expect(read.status == 0 && read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(read)")
        // Changing any row: no UPDATE privilege at all.
        let change = try attempt("UPDATE hrvmon_study.beats SET rr_ticks = 1 WHERE participant = '\(victim.pseudonym)'")
        #expect(change.status != 0 && change.stderr.contains("permission denied"), "\(change.stderr)")
        // Deleting any row: no DELETE privilege (format 6; its own rows go through `erase_own`).
        let delete = try attempt("DELETE FROM hrvmon_study.beats WHERE participant = '\(victim.pseudonym)'")
        #expect(delete.status != 0 && delete.stderr.contains("permission denied"), "\(delete.stderr)")
        // Inserting as another: the policy's check refuses the row.
        let insert = try attempt("INSERT INTO hrvmon_study.sessions (participant, session, started) VALUES ('\(victim.pseudonym)', 'forged', 0)")
        #expect(insert.status != 0 && insert.stderr.contains("row-level security"), "\(insert.stderr)")
        // The same for check-ins, answers to "Was that stress?", notes and events.
        for table in ["checkins", "episode_labels", "notes", "events"] {
            let read = try attempt("SELECT count(*) FROM hrvmon_study.\(table) WHERE participant = '\(victim.pseudonym)'")
            #expect(read.status == 0 && read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(read)")
            let change = try attempt("UPDATE hrvmon_study.\(table) SET seq = 99 WHERE participant = '\(victim.pseudonym)'")
            #expect(change.status != 0 && change.stderr.contains("permission denied"), "\(change.stderr)")
            #expect(try attempt("DELETE FROM hrvmon_study.\(table) WHERE participant = '\(victim.pseudonym)'").stderr.contains("permission denied"))
        }
        for insert in [
            "INSERT INTO hrvmon_study.checkins (participant, session, seq, time, mood) VALUES ('\(victim.pseudonym)', '', 99, 0, 1)",
            "INSERT INTO hrvmon_study.episode_labels (participant, session, seq, episode, start_s, answer, via) VALUES ('\(victim.pseudonym)', 'forged', 1, 1, 0, 'no', 'command')",
            "INSERT INTO hrvmon_study.notes (participant, session, seq, time, text) VALUES ('\(victim.pseudonym)', 'forged', 1, 0, 'forged')",
            "INSERT INTO hrvmon_study.events (participant, session, kind, seq) VALUES ('\(victim.pseudonym)', 'forged', 'link', 1)",
        ] {
            let forged = try attempt(insert)
            #expect(forged.status != 0 && forged.stderr.contains("row-level security"), "\(forged.stderr)")
        }
        // What the server keeps of its own is not a participant's to write, even in its own rows:
        // a session's counts, when a row arrived, when consent was given; nor are the gaps
        // between its beats its to read.
        let ownSession = "SELECT session FROM hrvmon_study.sessions LIMIT 1"
        let consentText = "(SELECT sha256 FROM hrvmon_study.consent_versions WHERE version = 1)"
        for sql in [
            "UPDATE hrvmon_study.sessions SET beats_received = 999999 WHERE session = (\(ownSession))",
            "INSERT INTO hrvmon_study.sessions (session, started, beats_received) VALUES ('forged', 0, 999999)",
            "INSERT INTO hrvmon_study.sessions (session, started, last_beat) VALUES ('forged-end', 0, 1e12)",
            "INSERT INTO hrvmon_study.sessions (session, started, received) VALUES ('forged-received', 0, '2001-01-01')",
            "INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks, received) VALUES ((\(ownSession)), 999999, 0, 1000, '2001-01-01')",
            "INSERT INTO hrvmon_study.notes (session, seq, time, text, received) VALUES ('forged', 1, 0, 'forged', '2001-01-01')",
            "INSERT INTO hrvmon_study.consents (version, sha256, categories, accepted) VALUES (1, \(consentText), '{rr}', '2001-01-01')",
            "SELECT count(*) FROM hrvmon_study.beat_gaps",
        ] {
            let forged = try attempt(sql)
            #expect(forged.status != 0 && forged.stderr.contains("permission denied"), "\(sql): \(forged.stdout) \(forged.stderr)")
        }
        // As the participants' group role (every participant may SET ROLE to it): no rows to
        // share with another participant under its name.
        let group = try attempt("SELECT participant_role FROM hrvmon_study.study").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for sql in [
            "INSERT INTO hrvmon_study.sessions (session, started) VALUES ('shared', 0)",
            "INSERT INTO hrvmon_study.notes (session, seq, time, text) VALUES ('shared', 1, 0, 'shared')",
            "INSERT INTO hrvmon_study.consents (version, sha256, categories) VALUES (1, \(consentText), '{rr}')",
        ] {
            let shared = try attempt("SET ROLE \(group); \(sql)")
            #expect(shared.status != 0 && shared.stderr.contains("row-level security"), "\(sql): \(shared.stdout) \(shared.stderr)")
        }
        // A consent to a text the study does not hold.
        let otherText = try attempt("INSERT INTO hrvmon_study.consents (version, sha256, categories) VALUES (1, 'forged', '{rr}')")
        #expect(otherText.status != 0 && otherText.stderr.contains("consented_text"), "\(otherText.stderr)")
        let consent = try attempt("INSERT INTO hrvmon_study.consents (participant, version, sha256, categories) VALUES ('\(victim.pseudonym)', 1, 'x', '{rr}')")
        #expect(consent.status != 0 && consent.stderr.contains("row-level security"), "\(consent.stderr)")
        // Who else takes part: the participant list, the consents, and the catalogue's role list.
        for sql in [
            "SELECT pseudonym FROM hrvmon_study.participants", "SELECT participant FROM hrvmon_study.consents",
            "SELECT rolname FROM pg_roles", "SELECT usename FROM pg_stat_activity", "SELECT * FROM pg_auth_members",
        ] {
            let listing = try attempt(sql)
            #expect(listing.status != 0 && listing.stderr.contains("permission denied"), "\(sql): \(listing.stdout) \(listing.stderr)")
        }
        #expect(try study.serverBeats(victim) == victimBeats, "the victim's rows are as they were")
        #expect(try study.serverRows("checkins", of: victim) == 2 && study.serverRows("episode_labels", of: victim) == 1)
        #expect(try study.serverRows("notes", of: victim) == 1 && study.serverRows("events", of: victim) == 3)
        let victimNote = try study.server.researcherSQL(study.database, "SELECT text FROM hrvmon_study.notes WHERE participant = '\(victim.pseudonym)'")
        #expect(victimNote.stdout.hasPrefix("exam, \"hard\""), "\(victimNote)")
    }
}

/// Sending through faults: the sending process killed with SIGKILL, and the server stopped at
/// once, each while a batch is on its way; then sent again. Every beat is on the server exactly
/// once. A batch is held on its way deterministically: the researcher's open transaction holds
/// rows with keys of the second batch, so the participant's insert waits on them after the first
/// batch has committed.
@Suite(.serialized) struct StudyFaultTests {
    /// The researcher's psql kept open, with a transaction holding beat keys 1600–1700 of `session`.
    /// Its insert fires no trigger (`session_replication_role = replica`, as a superuser may): the
    /// one that counts beats per session would lock the session's row, and the participant's
    /// first batch would wait on that instead of committing.
    final class HeldBatch {
        let process: Process
        let input: FileHandle
        let output: LineReader

        init(_ study: StudyFixture, _ participant: StudyFixture.Participant, session: String) throws {
            let log = Hrvmon.freshHome() + ".psql.log"
            (process, input, output) = try TestChild.spawn(
                PrivatePostgres.psql, ["-X", "-q", "-A", "-t", study.server.researcherConninfo(study.database)],
                environment: ["PGPASSWORD": study.server.researcherPassword], log: log)
            let key = "'\(participant.pseudonym)', '\(session)'"
            try TestChild.send(
                """
                INSERT INTO hrvmon_study.sessions (participant, session, started) VALUES (\(key), 0);
                SET session_replication_role = replica;
                BEGIN;
                INSERT INTO hrvmon_study.beats (participant, session, seq, time, rr_ticks) SELECT \(key), s, 0, 0 FROM generate_series(1600, 1700) s;

                """, to: input.fileDescriptor)
            // psql's output to a pipe is buffered; the server says when the transaction holds the rows.
            let idle = "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = '\(study.database)'"
            let deadline = Date().addingTimeInterval(60)
            while try study.server.researcherSQL(study.database, idle).stdout.hasPrefix("0") && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(try study.server.researcherSQL(study.database, idle).stdout.hasPrefix("1"), "psql holds the batch's keys")
        }

        /// Rolls the transaction back (if the server still has it) and ends psql.
        func release() {
            try? TestChild.send("ROLLBACK;\n", to: input.fileDescriptor)
            try? input.close()
            process.waitUntilExit()
        }
    }

    /// Waits until the server has committed the first batch (1500 beats) of the participant.
    func awaitFirstBatch(_ study: StudyFixture, _ participant: StudyFixture.Participant) throws {
        let deadline = Date().addingTimeInterval(120)
        while try study.serverBeats(participant).rows < 1500 && Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        #expect(try study.serverBeats(participant).rows == 1500)
    }

    /// A joined participant's hour-long session being sent by `study sync`, which has had its
    /// first batch committed while its second's keys are held (`HeldBatch`).
    func syncHeldAfterItsFirstBatch(_ study: StudyFixture) throws -> (participant: StudyFixture.Participant, held: HeldBatch, sync: LiveProcess) {
        let participant = try #require(try study.joined(1).first)
        try participant.record(minutes: 60)
        let session = try #require(participant.sessionIDs.first)
        let held = try HeldBatch(study, participant, session: session)
        let sync = try LiveProcess(["study", "sync"], environment: participant.environment, home: participant.home)
        try awaitFirstBatch(study, participant)
        return (participant, held, sync)
    }

    func expectExactlyOnce(_ study: StudyFixture, _ participant: StudyFixture.Participant) throws {
        let sync = try participant.run(["study", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        let local = try participant.localBeats()
        #expect(local > 3000)
        #expect(try study.serverBeats(participant) == (local, local))
        let again = try participant.run(["study", "sync"])
        #expect(again.status == 0 && again.stdout.contains("nothing to send"), "\(again.stdout)")
    }

    @Test func aSyncKilledMidBatchLosesAndDuplicatesNothing() throws {
        let study = try StudyFixture()
        let (participant, held, sync) = try syncHeldAfterItsFirstBatch(study)
        sync.signal(SIGKILL)
        #expect(sync.waitForExit(timeout: 30) != nil)
        held.release()
        try expectExactlyOnce(study, participant)
    }

    @Test func aServerStoppedMidBatchThenRestartedLosesAndDuplicatesNothing() throws {
        let server = try PrivatePostgres()
        defer { server.stop() }
        let study = try StudyFixture(server: server)
        let (participant, held, sync) = try syncHeldAfterItsFirstBatch(study)
        try server.crash()
        #expect(sync.waitForExit(timeout: 60) == 1)
        #expect(sync.stderr.contains("was lost") && sync.stderr.contains("not committed was not received"), "\(sync.stderr)")
        held.release()
        // Down: said as such, and nothing local is touched.
        let down = try participant.run(["study", "sync"])
        #expect(down.status == 1 && down.stderr.contains("cannot reach"), "\(down.stderr)")
        try server.restart()
        try expectExactlyOnce(study, participant)
    }
}
