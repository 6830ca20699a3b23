import Foundation
import TestSupport
import Testing

/// A participant's credential from its invite, used with psql (a client other than hrvmon) to
/// attack the others, the server's own bookkeeping, the researcher's `status` and `pull`, and the
/// server itself; each attack refused. `StudyAttackTests` holds the first ones tried; the
/// reference's security part (docs/reference/study.md#what-a-participant-can-and-cannot-do) says
/// what cannot be closed from inside the database.
@Suite(.serialized) struct StudyRedTeamTests {
    typealias Participant = StudyFixture.Participant

    static let victimSession = "20271103-0712"

    /// Two participants joined to a study offering every category; the victim's session (ten beats
    /// a second apart), a note and a check-in sent by hand.
    static func attackerAndVictim(_ study: StudyFixture) throws -> (attacker: Participant, victim: Participant) {
        let participants = try study.joined(2, offering: "rr,checkins,notes,events")
        let sent = try study.sql(
            as: participants[1],
            """
            INSERT INTO hrvmon_study.sessions (session, started, recorded_until, recorded_beats) VALUES ('\(victimSession)', 1825000000, 1825000010, 10);
            INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks) SELECT '\(victimSession)', s, 1825000000 + s, 1024 FROM generate_series(1, 10) s;
            INSERT INTO hrvmon_study.notes (session, seq, time, text) VALUES ('\(victimSession)', 1, 1825000005, 'victim note');
            INSERT INTO hrvmon_study.checkins (session, seq, time, mood, doing) VALUES ('', 1, 1825000020, 4, 'reading');
            """)
        #expect(sent.status == 0, "\(sent.stderr)")
        return (participants[0], participants[1])
    }

    /// The researcher's `status` (text and json) and `pull` (every format) still give the victim's
    /// beats, note and check-in whole; `pull`'s directories by format.
    @discardableResult
    static func expectStatusAndPullServe(_ study: StudyFixture, _ victim: Participant, bidsStatus: Int32 = 0) throws -> [String: String] {
        let text = try study.researcher(["study", "status", "--database", study.uri])
        #expect(text.status == 0 && text.stdout.split(separator: "\n").count == 3, "\(text.stdout) \(text.stderr)")
        let json = try study.researcher(["study", "status", "--database", study.uri, "--format", "json"])
        let list = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(list.first { $0["participant"] as? String == victim.pseudonym }?["beats"] as? Int == 10, "\(json.stdout) \(json.stderr)")
        var directories: [String: String] = [:]
        for format in ["csv", "jsonl", "bids"] {
            let directory = Hrvmon.freshHome() + "/pulled"
            let pull = try study.researcher(["study", "pull", "--database", study.uri, "--format", format, "-o", directory])
            #expect(pull.status == (format == "bids" ? bidsStatus : 0), "\(format): \(pull.stderr)")
            directories[format] = directory
        }
        let csv = try String(contentsOfFile: directories["csv"]! + "/beats.csv", encoding: .utf8)
        #expect(csv.split(separator: "\n").filter { $0.hasPrefix(victim.pseudonym + ",") }.count == 10)
        #expect(try String(contentsOfFile: directories["jsonl"]! + "/notes.jsonl", encoding: .utf8).contains("victim note"))
        let bids = directories["bids"]!
        let subject = "sub-" + victim.pseudonym.replacingOccurrences(of: "_", with: "")
        #expect(FileManager.default.fileExists(atPath: "\(bids)/\(subject)/ses-\(victimSession.replacingOccurrences(of: "-", with: ""))"))
        let participants = (try? String(contentsOfFile: bids + "/participants.tsv", encoding: .utf8)) ?? ""
        #expect(participants.split(separator: "\n").count == 3 && participants.contains(subject), "\(participants)")
        let checkIns = (try? String(contentsOfFile: bids + "/phenotype/checkins.tsv", encoding: .utf8)) ?? ""
        #expect(checkIns.contains("reading"), "\(checkIns)")
        return directories
    }

    /// NaN, infinite and undatable times: `status` turns times into dates (`to_timestamp`, which
    /// refuses them) and would fail for every participant (format 6: constraint `dated`).
    @Test func timesNoClockCanReadAreRefused() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        #expect(try study.sql(as: attacker, "INSERT INTO hrvmon_study.sessions (session, started) VALUES ('own', 1825000000)").status == 0)
        for value in ["'NaN'", "'Infinity'", "'-Infinity'", "1e300", "-1e300"] {
            for sql in [
                "UPDATE hrvmon_study.sessions SET recorded_until = \(value) WHERE session = 'own'",
                "INSERT INTO hrvmon_study.sessions (session, started) VALUES ('hostile', \(value))",
                "INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks) VALUES ('own', 1, \(value), 1024)",
                "INSERT INTO hrvmon_study.checkins (session, seq, time, mood) VALUES ('', 1, \(value), 3)",
                "INSERT INTO hrvmon_study.episode_labels (session, seq, episode, start_s, end_s, answer, via) VALUES ('own', 1, 1, 0, \(value), 'no', 'command')",
                "INSERT INTO hrvmon_study.notes (session, seq, time, text) VALUES ('own', 1, \(value), 'x')",
                "INSERT INTO hrvmon_study.events (session, kind, seq, time) VALUES ('own', 'link', 1, \(value))",
                "INSERT INTO hrvmon_study.events (session, kind, seq, start_s) VALUES ('own', 'stress', 1, \(value))",
            ] {
                let hostile = try study.sql(as: attacker, sql)
                #expect(hostile.status != 0 && hostile.stderr.contains("\"dated\""), "\(sql): \(hostile.stderr)")
            }
        }
        try Self.expectStatusAndPullServe(study, victim)
    }

    /// A consent's categories are shown as they are by `status` and in `participants.tsv`: a line
    /// break and a tab in one would forge a line of a participant that does not exist (format 6:
    /// only categories the study offers).
    @Test func aConsentNamesOnlyCategoriesTheStudyOffers() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        let consent = "INSERT INTO hrvmon_study.consents (version, sha256, categories) SELECT version, sha256, %@ FROM hrvmon_study.consent_versions"
        for categories in ["ARRAY[E'rr\\nsub-pforged\\tp_forged\\t1\\t2027-01-01T00:00:00Z\\trr']", "'{rr,ecg}'"] {
            let forged = try study.sql(as: attacker, consent.replacingOccurrences(of: "%@", with: categories))
            #expect(forged.status != 0 && forged.stderr.contains("row-level security"), "\(categories): \(forged.stderr)")
        }
        // Its own choice among those offered is still its to record.
        #expect(try study.sql(as: attacker, consent.replacingOccurrences(of: "%@", with: "'{rr,notes}'")).status == 0)
        let bids = try Self.expectStatusAndPullServe(study, victim)["bids"]!
        #expect(try !String(contentsOfFile: bids + "/participants.tsv", encoding: .utf8).contains("forged"))
    }

    /// A session BIDS cannot hold (its first beat at the earliest time a study takes, so its
    /// start a second before the first day BIDS can date) is the participant's own: `pull
    /// --format bids` leaves it out, says so and exits 1, but pulls every other participant's whole.
    @Test func aSessionBIDSCannotHoldLeavesTheOthersPulled() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        let sent = try study.sql(
            as: attacker,
            """
            INSERT INTO hrvmon_study.sessions (session, started) VALUES ('early', -62135596800);
            INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks) VALUES ('early', 1, -62135596800, 1024), ('early', 2, -62135596799, 1024);
            """)
        #expect(sent.status == 0, "\(sent.stderr)")
        try Self.expectStatusAndPullServe(study, victim, bidsStatus: 1)
        let pull = try study.researcher(["study", "pull", "--database", study.uri, "--format", "bids", "-o", Hrvmon.freshHome() + "/pulled"])
        #expect(pull.stderr.contains("left out") && pull.stderr.contains("\(attacker.pseudonym) session \"early\""), "\(pull.stderr)")
    }

    /// Text a participant chooses (a session's id, a note, a check-in's tag, an event's detail)
    /// with every separator CSV, TSV and JSON Lines have, and a comma and a quote each joined to
    /// a combining mark (one Character in Swift, two code points to every CSV reader; alone in a
    /// note's text, with other separators in the rest): each value stays in its cell in every
    /// format `pull` writes, and comes back as sent.
    @Test func hostileTextStaysInItsCellInEveryPullFormat() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        let hostile = "a,\"b'\n\tc/../../d\r\u{2028}e,\u{301}f\"\u{301}g"
        let combined = "x,\u{301}y\"\u{301}z"
        let text = "$hostile$\(hostile)$hostile$"
        let sent = try study.sql(
            as: attacker,
            """
            INSERT INTO hrvmon_study.sessions (session, started) VALUES (\(text), 1825000000);
            INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks) SELECT \(text), s, 1825000000 + s, 1024 FROM generate_series(1, 5) s;
            INSERT INTO hrvmon_study.notes (session, seq, time, text) VALUES (\(text), 1, 1825000003, $hostile$\(combined)$hostile$);
            INSERT INTO hrvmon_study.checkins (session, seq, time, mood, doing, company, place) VALUES (\(text), 1, 1825000003, 2, \(text), \(text), \(text));
            INSERT INTO hrvmon_study.events (session, kind, seq, time, detail) VALUES (\(text), 'link', 1, 1825000003, \(text));
            """)
        #expect(sent.status == 0, "\(sent.stderr)")
        let pulled = try Self.expectStatusAndPullServe(study, victim)
        for name in ["beats", "notes", "checkins", "events"] {
            let records = Self.csvRecords(try String(contentsOfFile: "\(pulled["csv"]!)/\(name).csv", encoding: .utf8))
            let width = records.first?.count ?? 0
            #expect(records.count > 1 && records.allSatisfy { $0.count == width }, "\(name).csv: \(records)")
            let session = records.first?.firstIndex(of: "session") ?? 1
            #expect(records.contains { $0.first == attacker.pseudonym && $0.count == width && $0[session] == hostile }, "\(name).csv: \(records)")
        }
        let notes = Self.csvRecords(try String(contentsOfFile: "\(pulled["csv"]!)/notes.csv", encoding: .utf8))
        #expect(notes.contains { $0.last == combined }, "\(notes)")
        for name in ["beats", "notes", "checkins", "events"] {
            let lines = try String(contentsOfFile: "\(pulled["jsonl"]!)/\(name).jsonl", encoding: .utf8).split(separator: "\n")
            let objects = lines.map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(objects.allSatisfy { $0 != nil } && objects.contains { $0?["session"] as? String == hostile }, "\(name).jsonl")
        }
        let bids = pulled["bids"]!
        let files = FileManager.default.enumerator(atPath: bids)?.allObjects as? [String] ?? []
        #expect(files.contains { $0.hasPrefix("sub-" + attacker.pseudonym.replacingOccurrences(of: "_", with: "") + "/ses-") })
        for file in files where file.hasSuffix(".tsv") {
            let lines = try String(contentsOfFile: "\(bids)/\(file)", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            let width = lines.first?.split(separator: "\t", omittingEmptySubsequences: false).count
            #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == width }, "\(file): \(lines)")
        }
        let bidsNotes = try String(contentsOfFile: bids + "/phenotype/notes.tsv", encoding: .utf8)
        #expect(bidsNotes.split(separator: "\n").count == 3, "\(bidsNotes)")
    }

    /// What would reach past its own rows: the schema's objects, the server's files and programs,
    /// other roles, settings that switch the server's checks off. Each refused by PostgreSQL.
    @Test func nothingPastItsOwnRowsIsAParticipants() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        let group = try study.sql(as: attacker, "SELECT participant_role FROM hrvmon_study.study").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let (own, other) = (attacker.pseudonym, victim.pseudonym)
        for sql in [
            // Objects: none of its own anywhere but its temporary schema, none of the study's changed.
            "CREATE TABLE public.x (a int)", "CREATE TABLE hrvmon_study.x (a int)", "CREATE SCHEMA x", "CREATE DATABASE x",
            "CREATE FUNCTION hrvmon_study.f() RETURNS int LANGUAGE sql AS 'SELECT 1'", "CREATE VIEW hrvmon_study.v AS SELECT 1",
            "ALTER TABLE hrvmon_study.beats DISABLE ROW LEVEL SECURITY", "ALTER POLICY own_beats ON hrvmon_study.beats USING (true)",
            "DROP POLICY own_beats ON hrvmon_study.beats", "ALTER TABLE hrvmon_study.beats DISABLE TRIGGER beats_added",
            "CREATE TRIGGER t AFTER INSERT ON hrvmon_study.beats FOR EACH ROW EXECUTE FUNCTION hrvmon_study.beats_added()",
            "ALTER FUNCTION hrvmon_study.beats_added() SECURITY INVOKER", "ALTER FUNCTION hrvmon_study.find_gaps(name, text, integer, integer) OWNER TO \(own)",
            "TRUNCATE hrvmon_study.beats", "DROP TABLE hrvmon_study.beats",
            "REINDEX TABLE hrvmon_study.beats", "ALTER TABLE hrvmon_study.study ADD COLUMN x int",
            // The server's own functions, called by hand.
            "SELECT hrvmon_study.find_gaps('\(other)', '\(Self.victimSession)', -1, 2147483647)", "SELECT hrvmon_study.beats_added()",
            // Row-level security and the counting triggers switched off.
            "SET session_replication_role = replica", "SET row_security = off; SELECT count(*) FROM hrvmon_study.beats",
            "SET log_statement = 'none'", "ALTER SYSTEM SET row_security = off",
            // Other roles: become, change, drop, cut off from the group.
            "SET ROLE \(other)", "SET SESSION AUTHORIZATION \(other)", "ALTER ROLE \(other) PASSWORD 'taken'", "DROP ROLE \(other)",
            "REVOKE \(group) FROM \(other)", "GRANT \(group) TO \(own) WITH ADMIN OPTION", "CREATE ROLE x LOGIN",
            "ALTER ROLE \(own) VALID UNTIL 'infinity'", "ALTER ROLE \(own) CREATEROLE", "ALTER ROLE \(group) LOGIN",
            // The server's files and programs, and other databases through an extension.
            "COPY (SELECT 1) TO PROGRAM 'true'", "COPY hrvmon_study.notes (session, seq, time, text) FROM PROGRAM 'true'",
            "COPY (SELECT 1) TO '/tmp/hrvmon-red-team'", "SELECT pg_read_file('/etc/passwd')", "SELECT pg_ls_dir('.')",
            "SELECT lo_import('/etc/passwd')", "CREATE EXTENSION dblink", "CREATE EXTENSION postgres_fdw", "LOAD 'auto_explain'",
            // Who is connected now, under the view the role list's closing revokes.
            "SELECT usesysid FROM pg_stat_get_activity(NULL)", "SELECT pg_stat_get_backend_userid(1)",
        ] {
            let refused = try study.sql(as: attacker, sql)
            #expect(refused.status != 0, "\(sql): \(refused.stdout)")
        }
        // Granting what it does not hold grants nothing (PostgreSQL only warns).
        let granted = try study.sql(as: attacker, "GRANT SELECT ON hrvmon_study.beats TO PUBLIC; GRANT DELETE ON hrvmon_study.sessions TO PUBLIC")
        #expect(granted.stderr.contains("no privileges were granted"), "\(granted.stderr)")
        #expect(try study.serverColumn("SELECT has_table_privilege('public', 'hrvmon_study.beats', 'SELECT')") == ["f"])
        #expect(try study.serverBeats(victim) == (10, 10))
        #expect(try study.serverColumn("SELECT rolname FROM pg_roles WHERE rolname = '\(other)' AND rolcanlogin") == [other])
    }

    /// A lock stronger than inserting takes (`LOCK TABLE`, which PostgreSQL allows a role holding
    /// DELETE or UPDATE on the table), held in an open transaction, would stop every other
    /// participant's `sync` and the researcher's `status` and `pull` until it ended (format 6: no
    /// participant holds DELETE; it erases its own rows through `hrvmon_study.erase_own`).
    @Test func noParticipantLocksATableAgainstTheOthers() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        for table in ["sessions", "beats", "checkins", "episode_labels", "notes", "events", "consents", "study", "consent_versions"] {
            for mode in ["ACCESS EXCLUSIVE", "EXCLUSIVE", "SHARE ROW EXCLUSIVE", "SHARE"] {
                let locked = try study.sql(as: attacker, "BEGIN; LOCK TABLE hrvmon_study.\(table) IN \(mode) MODE; COMMIT")
                #expect(locked.status != 0 && locked.stderr.contains("permission denied"), "\(table) \(mode): \(locked.stderr)")
            }
        }
        // Its own rows, all of a table at once, are still its to erase, and only its own.
        #expect(try study.sql(as: victim, "SELECT hrvmon_study.erase_own('notes')").stdout.hasPrefix("1"))
        #expect(try study.sql(as: attacker, "SELECT hrvmon_study.erase_own('beats')").stdout.hasPrefix("0"))
        for hostile in ["participants", "consents", "beat_gaps", "study", "beats WHERE true; --"] {
            let refused = try study.sql(as: attacker, "SELECT hrvmon_study.erase_own('\(hostile)')")
            #expect(refused.status != 0, "\(hostile): \(refused.stdout)")
        }
        #expect(try study.serverBeats(victim) == (10, 10))
        #expect(try study.serverRows("consents", of: attacker) == 1)
    }

    /// What every role may read of the catalogue and cannot be closed from inside the database
    /// (docs/reference/study.md): table sizes and counts of rows, not a pseudonym or a value.
    /// Column statistics (`pg_stats`) leave out tables under row-level security.
    @Test func theCatalogueShowsCountsButNoPseudonymOrValue() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        #expect(try study.server.researcherSQL(study.database, "ANALYZE").status == 0)
        let inSchema = "schemaname = 'hrvmon_study'"
        // Only of the tables every participant may read whole.
        let read = try study.sql(as: attacker, "SELECT DISTINCT tablename FROM pg_stats WHERE \(inSchema) ORDER BY 1")
        #expect(read.stdout.split(separator: "\n") == ["consent_versions", "study"], "\(read.stdout) \(read.stderr)")
        for sql in [
            "SELECT count(*) FROM pg_stats WHERE \(inSchema) AND tablename NOT IN ('consent_versions', 'study')",
            "SELECT count(*) FROM pg_stats_ext WHERE \(inSchema)",
            "SELECT count(*) FROM pg_stats_ext_exprs WHERE \(inSchema)",
        ] {
            let statistics = try study.sql(as: attacker, sql)
            #expect(statistics.status == 0 && statistics.stdout.hasPrefix("0"), "\(sql): \(statistics.stdout) \(statistics.stderr)")
        }
        #expect(try study.sql(as: attacker, "SELECT count(*) FROM pg_statistic").status != 0)
        let open = try study.sql(
            as: attacker,
            """
            SELECT (SELECT string_agg(c::text, ' ') FROM pg_class c WHERE relnamespace = 'hrvmon_study'::regnamespace)
                || (SELECT string_agg(s::text, ' ') FROM pg_stat_user_tables s) || (SELECT string_agg(s::text, ' ') FROM pg_statio_user_tables s)
                || (SELECT string_agg(l::text, ' ') FROM pg_locks l) || (SELECT string_agg(s::text, ' ') FROM pg_shdepend s)
                || (SELECT string_agg(d::text, ' ') FROM pg_database d) || (SELECT string_agg(n::text, ' ') FROM pg_namespace n)
            || (SELECT string_agg(s::text, ' ') FROM pg_stats s)
            """)
        #expect(open.status == 0 && open.stdout.contains("beats"), "\(open.stderr)")
        for secret in [victim.pseudonym, "victim note", "reading", Self.victimSession] {
            #expect(!open.stdout.contains(secret), "\(secret) in \(open.stdout)")
        }
    }

    /// A participant who left with `--erase` keeps its role until the researcher erases it (its
    /// credential still logs in, to its own rows only: none left); once erased, or expired on the
    /// server, the credential logs in no more.
    @Test func aCredentialAfterLeavingAndAfterErasure() throws {
        let study = try StudyFixture()
        let (attacker, victim) = try Self.attackerAndVictim(study)
        let left = try victim.run(["study", "leave", "--erase", "--yes"])
        #expect(left.status == 0, "\(left.stderr)")
        let after = try study.sql(as: victim, "SELECT (SELECT count(*) FROM hrvmon_study.beats) + (SELECT count(*) FROM hrvmon_study.notes)")
        #expect(after.status == 0 && after.stdout.hasPrefix("0"), "\(after.stdout) \(after.stderr)")
        let erased = try study.researcher(["study", "erase", "--database", study.uri, victim.pseudonym])
        #expect(erased.status == 0, "\(erased.stderr)")
        let gone = try study.sql(as: victim, "SELECT 1")
        #expect(gone.status != 0 && gone.stderr.contains("authentication failed"), "\(gone.stderr)")
        #expect(try study.server.researcherSQL(study.database, "ALTER ROLE \(attacker.pseudonym) VALID UNTIL '2001-01-01'").status == 0)
        let expired = try study.sql(as: attacker, "SELECT 1")
        #expect(expired.status != 0 && expired.stderr.contains("authentication failed"), "\(expired.stderr)")
    }

    /// CSV as a reader other than Swift reads it: code point by code point (RFC 4180).
    static func csvRecords(_ text: String) -> [[String]] {
        var (records, record, field, quoted) = ([[String]](), [String](), String.UnicodeScalarView(), false)
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch (quoted, scalar) {
            case (true, "\""):
                if pending == "\"" { field.append(scalar); pending = scalars.next() } else { quoted = false }
            case (true, _): field.append(scalar)
            case (false, "\""): quoted = true
            case (false, ","): record.append(String(field)); field = String.UnicodeScalarView()
            case (false, "\n"):
                records.append(record + [String(field)])
                (record, field) = ([], String.UnicodeScalarView())
            default: field.append(scalar)
            }
        }
        return records
    }
}
