extension StudySchema {
    /// Format 4: what `status` reports of the beats, kept per session as they arrive, so that it
    /// reads a row per session instead of every beat of the study. Triggers on `beats` (statement
    /// level, with the rows inserted or deleted as a transition table) keep each session's
    /// `beats_received`, `first_beat`, `last_beat` and `last_received`, and `beat_gaps`, the
    /// stretches of at least `StudyResearcher.gapMinimum` seconds between two of its beats, in the
    /// statement that inserts the beats (so in its transaction). They are the server's own: a
    /// participant may neither update them (the functions run as the study's owner) nor read the
    /// gaps; from format 5 nor insert them. A study of format 3 has them counted once from its beats.
    static func beatsCountedPerSession(group _: String) -> String {
        let gap = StudyResearcher.gapMinimum
        return """
            ALTER TABLE hrvmon_study.sessions
                ADD COLUMN beats_received integer NOT NULL DEFAULT 0,
                ADD COLUMN first_beat double precision,
                ADD COLUMN last_beat double precision,
                ADD COLUMN last_received timestamptz;
            CREATE TABLE hrvmon_study.beat_gaps (
                participant name NOT NULL,
                session text NOT NULL,
                from_time double precision NOT NULL,
                to_time double precision NOT NULL,
                PRIMARY KEY (participant, session, from_time),
                FOREIGN KEY (participant, session) REFERENCES hrvmon_study.sessions ON DELETE CASCADE);
            UPDATE hrvmon_study.sessions s SET beats_received = b.beats, first_beat = b.first, last_beat = b.last, last_received = b.received
            FROM (SELECT participant, session, count(*) AS beats, min(time) AS first, max(time) AS last, max(received) AS received
                FROM hrvmon_study.beats GROUP BY participant, session) b
            WHERE s.participant = b.participant AND s.session = b.session;
            INSERT INTO hrvmon_study.beat_gaps
            SELECT participant, session, previous, time FROM (
                SELECT participant, session, time, lag(time) OVER (PARTITION BY participant, session ORDER BY time) AS previous
                FROM hrvmon_study.beats) o
            WHERE time - previous >= \(gap);
            -- The gaps between the beats numbered `low` to `high` of one session found again (the
            -- bounds: the beats next to those inserted, or beyond every beat).
            CREATE FUNCTION hrvmon_study.find_gaps(who name, which text, low integer, high integer) RETURNS void
            LANGUAGE sql SET search_path = pg_catalog, pg_temp AS $$
                DELETE FROM hrvmon_study.beat_gaps g WHERE g.participant = who AND g.session = which
                    AND g.from_time >= coalesce((SELECT time FROM hrvmon_study.beats WHERE participant = who AND session = which AND seq = low), '-infinity')
                    AND g.to_time <= coalesce((SELECT time FROM hrvmon_study.beats WHERE participant = who AND session = which AND seq = high), 'infinity');
                INSERT INTO hrvmon_study.beat_gaps
                SELECT who, which, previous, time FROM (
                    SELECT time, lag(time) OVER (ORDER BY time) AS previous FROM hrvmon_study.beats
                    WHERE participant = who AND session = which AND seq BETWEEN low AND high) o
                WHERE time - previous >= \(gap)
                ON CONFLICT DO NOTHING;
            $$;
            REVOKE EXECUTE ON FUNCTION hrvmon_study.find_gaps(name, text, integer, integer) FROM PUBLIC;
            CREATE FUNCTION hrvmon_study.beats_added() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            DECLARE
                added record;
                low integer;
                high integer;
            BEGIN
                FOR added IN SELECT participant, session, count(*) AS beats, min(seq) AS first_seq, max(seq) AS last_seq,
                        min(time) AS first_time, max(time) AS last_time
                    FROM new_beats GROUP BY participant, session
                LOOP
                    -- The session's row first: its lock makes two senders of one session take turns,
                    -- and the second then sees the first's beats.
                    UPDATE hrvmon_study.sessions SET beats_received = beats_received + added.beats, last_received = now(),
                        first_beat = least(first_beat, added.first_time), last_beat = greatest(last_beat, added.last_time)
                    WHERE participant = added.participant AND session = added.session;
                    SELECT coalesce(max(seq), added.first_seq) INTO low FROM hrvmon_study.beats
                    WHERE participant = added.participant AND session = added.session AND seq < added.first_seq;
                    SELECT coalesce(min(seq), added.last_seq) INTO high FROM hrvmon_study.beats
                    WHERE participant = added.participant AND session = added.session AND seq > added.last_seq;
                    PERFORM hrvmon_study.find_gaps(added.participant, added.session, low, high);
                END LOOP;
                RETURN NULL;
            END $$;
            -- Beats deleted (an erasure, a category removed): their sessions counted again whole.
            CREATE FUNCTION hrvmon_study.beats_removed() RETURNS trigger
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            DECLARE
                removed record;
            BEGIN
                FOR removed IN SELECT DISTINCT participant, session FROM old_beats LOOP
                    UPDATE hrvmon_study.sessions s SET (beats_received, first_beat, last_beat) = (
                        SELECT count(*), min(time), max(time) FROM hrvmon_study.beats b
                        WHERE b.participant = removed.participant AND b.session = removed.session)
                    WHERE s.participant = removed.participant AND s.session = removed.session;
                    PERFORM hrvmon_study.find_gaps(removed.participant, removed.session, -1, 2147483647);
                END LOOP;
                RETURN NULL;
            END $$;
            CREATE TRIGGER beats_added AFTER INSERT ON hrvmon_study.beats REFERENCING NEW TABLE AS new_beats
                FOR EACH STATEMENT EXECUTE FUNCTION hrvmon_study.beats_added();
            CREATE TRIGGER beats_removed AFTER DELETE ON hrvmon_study.beats REFERENCING OLD TABLE AS old_beats
                FOR EACH STATEMENT EXECUTE FUNCTION hrvmon_study.beats_removed();
            """
    }
}
