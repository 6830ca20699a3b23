/// The study's tables in the schema `hrvmon_study`, its participants' group role and their
/// row-level security. Participants are each one login role, a member of the study's group role
/// (named in `study.participant_role`); every table's policy lets a role reach only the rows whose
/// `participant` is its own name (`current_user`), so PostgreSQL itself refuses the rest.
///
/// What a participant may do: read the study's name, categories, time-shift setting and consent
/// texts; insert its consent; insert (a session's row: only the columns its hrvmon sends, not
/// the server's counts), read and delete its own sessions and beats, its own
/// check-ins and answers to "Was that stress?" (`selfReports`), its own notes and events (reading
/// its own rows is its upload state, and `ON CONFLICT` needs it); update only how far its own sessions were recorded
/// (`recorded_until`, `recorded_beats`: what `status` finds gaps against); nothing on
/// `participants`, nothing else of `consents`, no other UPDATE.
enum StudySchema {
    static let name = "hrvmon_study"
    /// The schema's format, in `study.format`, for a later hrvmon to migrate from. 2: the
    /// `checkins` category's tables (`selfReports`); 3: the `notes` and `events` categories'
    /// tables and the study's `time_shift` (`notesEventsAndTimeShift`); 4: the beats counted per
    /// session as they arrive, and the gaps between them (`beatsCountedPerSession`). `create` adds
    /// them to a study of an older format. 5: a participant inserts only the columns its hrvmon
    /// sends, so every `received` and a consent's `accepted` are the server's clock, and a consent
    /// names a text the study holds (`serverClocksAndConsentTexts`). 6: every time a dated one and
    /// a consent's categories the study's (`datedTimesAndOfferedCategories`).
    static let format = 6

    /// What the formats after `format` added, for the study's participants' role `group`.
    static func upgrades(from format: Int, group: String) -> String {
        [
            selfReports(group:), notesEventsAndTimeShift(group:), beatsCountedPerSession(group:), serverClocksAndConsentTexts(group:),
            datedTimesAndOfferedCategories(group:),
        ]
            .dropFirst(format - 1).map { $0(group) }
            .joined(separator: "\n")
    }

    /// A new study: format 1's tables, grants and policies, then every later format's upgrade on
    /// top of them, as a study of format 1 gets them.
    static func creation(group: String) -> String {
        """
        CREATE SCHEMA hrvmon_study;
        CREATE TABLE hrvmon_study.study (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            name text NOT NULL,
            format integer NOT NULL,
            participant_role name NOT NULL,
            categories text[] NOT NULL,
            created timestamptz NOT NULL DEFAULT now());
        CREATE TABLE hrvmon_study.consent_versions (
            version integer PRIMARY KEY,
            text text NOT NULL,
            sha256 text NOT NULL UNIQUE,
            created timestamptz NOT NULL DEFAULT now());
        CREATE TABLE hrvmon_study.participants (
            pseudonym name PRIMARY KEY,
            invited timestamptz NOT NULL DEFAULT now());
        CREATE TABLE hrvmon_study.consents (
            participant name NOT NULL DEFAULT current_user,
            version integer NOT NULL REFERENCES hrvmon_study.consent_versions,
            sha256 text NOT NULL,
            categories text[] NOT NULL,
            accepted timestamptz NOT NULL DEFAULT clock_timestamp(),
            withdrawn boolean NOT NULL DEFAULT false,
            PRIMARY KEY (participant, accepted));
        CREATE TABLE hrvmon_study.sessions (
            participant name NOT NULL DEFAULT current_user,
            session text NOT NULL,
            started double precision NOT NULL,
            recorded_until double precision,
            recorded_beats integer,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (participant, session));
        CREATE TABLE hrvmon_study.beats (
            participant name NOT NULL DEFAULT current_user,
            session text NOT NULL,
            seq integer NOT NULL,
            time double precision NOT NULL,
            rr_ticks integer NOT NULL CHECK (rr_ticks BETWEEN 0 AND 65535),
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (participant, session, seq),
            FOREIGN KEY (participant, session) REFERENCES hrvmon_study.sessions ON DELETE CASCADE);
        CREATE ROLE \(group) NOLOGIN;
        REVOKE ALL ON SCHEMA public FROM \(group);
        GRANT USAGE ON SCHEMA hrvmon_study TO \(group);
        GRANT SELECT ON hrvmon_study.study, hrvmon_study.consent_versions TO \(group);
        GRANT INSERT ON hrvmon_study.consents TO \(group);
        GRANT SELECT, INSERT, DELETE ON hrvmon_study.sessions, hrvmon_study.beats TO \(group);
        GRANT UPDATE (recorded_until, recorded_beats) ON hrvmon_study.sessions TO \(group);
        ALTER TABLE hrvmon_study.consents ENABLE ROW LEVEL SECURITY;
        ALTER TABLE hrvmon_study.sessions ENABLE ROW LEVEL SECURITY;
        ALTER TABLE hrvmon_study.beats ENABLE ROW LEVEL SECURITY;
        CREATE POLICY own_consents ON hrvmon_study.consents FOR INSERT TO \(group) WITH CHECK (participant = current_user);
        CREATE POLICY own_sessions ON hrvmon_study.sessions FOR ALL TO \(group)
            USING (participant = current_user) WITH CHECK (participant = current_user);
        CREATE POLICY own_beats ON hrvmon_study.beats FOR ALL TO \(group)
            USING (participant = current_user) WITH CHECK (participant = current_user);
        DO $$ BEGIN
            EXECUTE format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', current_database());
            EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), '\(group)');
        END $$;
        \(upgrades(from: 1, group: group))
        """
    }

    /// The `checkins` category: check-ins (in a session, or in the diary: `session` empty) and
    /// answers to "Was that stress?", each keyed by its place in its file (`seq`, from 1; the
    /// files are only appended to), so a row sent again is not stored twice. No foreign key to
    /// `sessions`: a participant may send these without the session's beats (rr).
    static func selfReports(group: String) -> String {
        """
        CREATE TABLE hrvmon_study.checkins (
            participant name NOT NULL DEFAULT current_user,
            session text NOT NULL,
            seq integer NOT NULL,
            time double precision NOT NULL,
            mood integer NOT NULL CHECK (mood BETWEEN 1 AND 5),
            doing text,
            company text,
            place text,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (participant, session, seq));
        CREATE TABLE hrvmon_study.episode_labels (
            participant name NOT NULL DEFAULT current_user,
            session text NOT NULL,
            seq integer NOT NULL,
            episode integer NOT NULL,
            start_s double precision NOT NULL,
            end_s double precision,
            answer text NOT NULL CHECK (answer IN ('yes', 'no', 'unsure')),
            via text NOT NULL,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (participant, session, seq));
        \(ownRowsOnly([("checkins", "own_checkins"), ("episode_labels", "own_labels")], group: group))
        """
    }

    /// The `notes` category (the participant's notes during a session, each keyed by its place in
    /// the session's file, as check-ins are); the `events` category (what the session recorded
    /// about itself: stress and activity episodes, breathing exercises, suggestions, link changes;
    /// each keyed by its kind and its place among the session's events of that kind); and whether
    /// the study shifts its participants' times (`create --time-shift`; each participant's shift
    /// is theirs alone, never sent).
    static func notesEventsAndTimeShift(group: String) -> String {
        """
        CREATE TABLE hrvmon_study.notes (
            participant name NOT NULL DEFAULT current_user,
            session text NOT NULL,
            seq integer NOT NULL,
            time double precision NOT NULL,
            text text NOT NULL,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (participant, session, seq));
        CREATE TABLE hrvmon_study.events (
            participant name NOT NULL DEFAULT current_user,
            session text NOT NULL,
            kind text NOT NULL CHECK (kind IN ('stress', 'activity', 'exercise', 'suggestion', 'link')),
            seq integer NOT NULL,
            time double precision,
            start_s double precision,
            end_s double precision,
            detail text,
            received timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (participant, session, kind, seq));
        \(ownRowsOnly([("notes", "own_notes"), ("events", "own_events")], group: group))
        ALTER TABLE hrvmon_study.study ADD COLUMN time_shift boolean NOT NULL DEFAULT false;
        """
    }

    /// A category's tables a participant may read, add to and delete from, each only its own rows
    /// (row-level security by `participant`), written once so no table comes without its policy.
    static func ownRowsOnly(_ tables: [(table: String, policy: String)], group: String) -> String {
        let names = tables.map { "hrvmon_study.\($0.table)" }.joined(separator: ", ")
        return (["GRANT SELECT, INSERT, DELETE ON \(names) TO \(group);"]
            + tables.map { "ALTER TABLE hrvmon_study.\($0.table) ENABLE ROW LEVEL SECURITY;" }
            + tables.map {
                "CREATE POLICY \($0.policy) ON hrvmon_study.\($0.table) FOR ALL TO \(group)\n"
                    + "    USING (participant = current_user) WITH CHECK (participant = current_user);"
            }).joined(separator: "\n")
    }

    /// Format 5: a participant's INSERT granted only for the columns its hrvmon sends, so that
    /// `received` (when a row arrived) and a consent's `accepted` (when it was given) are always
    /// the server's own clock, never a participant's say, and a session's counts the server's
    /// (`beatsCountedPerSession`); no row of the group role's own (a participant may `SET ROLE` to
    /// it, and would then share rows under its name with any other participant); and a consent
    /// must name a version of the study's consent text with that text's SHA-256. Consents given
    /// before are not checked again (`NOT VALID`): an upgrade never fails on what an older hrvmon
    /// wrote.
    static func serverClocksAndConsentTexts(group: String) -> String {
        let tables: [(name: String, policy: String, sent: String)] = [
            ("consents", "own_consents", "participant, version, sha256, categories, withdrawn"),
            ("sessions", "own_sessions", "participant, session, started, recorded_until, recorded_beats"),
            ("beats", "own_beats", "participant, session, seq, time, rr_ticks"),
            ("checkins", "own_checkins", "participant, session, seq, time, mood, doing, company, place"),
            ("episode_labels", "own_labels", "participant, session, seq, episode, start_s, end_s, answer, via"),
            ("notes", "own_notes", "participant, session, seq, time, text"),
            ("events", "own_events", "participant, session, kind, seq, time, start_s, end_s, detail"),
        ]
        let own = ownRow(group: group)
        return (tables.map { table in
            let using = table.name == "consents" ? "" : " USING (\(own))"  // consents: INSERT only
            return insertOnly(table.sent, into: table.name, group: group)
                + "\nALTER POLICY \(table.policy) ON hrvmon_study.\(table.name)\(using) WITH CHECK (\(own));"
        } + [
            "ALTER TABLE hrvmon_study.consent_versions ADD CONSTRAINT version_and_text UNIQUE (version, sha256);",
            """
            ALTER TABLE hrvmon_study.consents ADD CONSTRAINT consented_text FOREIGN KEY (version, sha256)
                REFERENCES hrvmon_study.consent_versions (version, sha256) NOT VALID;
            """,
        ]).joined(separator: "\n")
    }

    /// A participant's own row: under its name, which is not the group role's (format 5).
    static func ownRow(group: String) -> String { "participant = current_user AND current_user <> '\(group)'" }

    /// The participants' INSERT on `table` narrowed to `columns`; the rest take their defaults.
    static func insertOnly(_ columns: String, into table: String, group: String) -> String {
        "REVOKE INSERT ON hrvmon_study.\(table) FROM \(group);\nGRANT INSERT (\(columns)) ON hrvmon_study.\(table) TO \(group);"
    }

    /// Who else takes part is in the catalogue's role list, which every role may read by default;
    /// in this database it is closed to the participants where the researcher may close it (a
    /// superuser may; an owner of the database alone may not, and `create` says so). Who is
    /// connected now, too: `pg_stat_activity` and the functions under it that name each
    /// connection's role to anyone.
    static let closingTheRoleList = """
        REVOKE SELECT ON pg_catalog.pg_roles, pg_catalog.pg_user, pg_catalog.pg_auth_members,
            pg_catalog.pg_stat_activity, pg_catalog.pg_group FROM PUBLIC;
        REVOKE EXECUTE ON FUNCTION pg_catalog.pg_stat_get_activity(integer), pg_catalog.pg_stat_get_backend_userid(integer) FROM PUBLIC
        """

    /// Relations in schemas that are neither the system's nor the study's: a database holding
    /// something else, which `create` will not touch.
    static let foreignRelations = """
        SELECT n.nspname || '.' || c.relname FROM pg_catalog.pg_class c
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f', 'S')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'hrvmon_study')
        AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
        ORDER BY 1
        """

    static let schemaExists = "SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = 'hrvmon_study'"
}
