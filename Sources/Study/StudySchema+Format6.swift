import SessionLog

extension StudySchema {
    /// Format 6: every time a participant sends is one PostgreSQL's clock functions and a BIDS
    /// dataset can date (the years 1 to 9999: not NaN, not infinite), so no row of one
    /// participant makes `status` (`to_timestamp`) or `pull` fail for the others; and a consent
    /// names only categories the study offers, so the text `status` and `participants.tsv` show of
    /// it is never a participant's own (a line break there would forge a line of another
    /// participant). NaN is above every number in PostgreSQL's order, so outside the years. Rows
    /// sent before are not checked again (`NOT VALID`), as in format 5. And no DELETE: PostgreSQL
    /// lets a role holding it `LOCK` the whole table, in a transaction kept open, against every
    /// other participant and the researcher; a participant erases its own rows of a table
    /// through `erase_own` instead (what `leave --erase` and giving up a category do).
    static func datedTimesAndOfferedCategories(group: String) -> String {
        let datable = SessionFile.datable
        let times: [(table: String, columns: [String])] = [
            ("sessions", ["started", "recorded_until"]), ("beats", ["time"]), ("checkins", ["time"]),
            ("episode_labels", ["start_s", "end_s"]), ("notes", ["time"]), ("events", ["time", "start_s", "end_s"]),
        ]
        return (times.map { table in
            let dated = table.columns.map { "\($0) >= \(datable.lowerBound) AND \($0) < \(datable.upperBound)" }.joined(separator: " AND ")
            return "ALTER TABLE hrvmon_study.\(table.table) ADD CONSTRAINT dated CHECK (\(dated)) NOT VALID;"
        } + [
            """
            ALTER POLICY own_consents ON hrvmon_study.consents
                WITH CHECK (\(ownRow(group: group)) AND categories <@ (SELECT categories FROM hrvmon_study.study));
            """
        ] + [erasingOwnRowsOnly(group: group)]).joined(separator: "\n")
    }

    /// The tables a participant sends to, whose rows of its own it may erase.
    static let erasable = ["beats", "sessions", "checkins", "episode_labels", "notes", "events"]

    /// `erase_own(table)`: the caller's rows of one of `erasable` deleted as the study's owner
    /// (the login role: `session_user`, which `SET ROLE` does not change), and how many.
    static func erasingOwnRowsOnly(group: String) -> String {
        let tables = erasable.map { "hrvmon_study.\($0)" }.joined(separator: ", ")
        return """
            CREATE FUNCTION hrvmon_study.erase_own(which text) RETURNS bigint
            LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            DECLARE
                deleted bigint;
            BEGIN
                IF which IS NULL OR NOT which = ANY (ARRAY['\(erasable.joined(separator: "', '"))']) THEN
                    RAISE EXCEPTION 'no table % a participant sends to', which;
                END IF;
                EXECUTE format('DELETE FROM hrvmon_study.%I WHERE participant = $1', which) USING session_user;
                GET DIAGNOSTICS deleted = ROW_COUNT;
                RETURN deleted;
            END $$;
            REVOKE EXECUTE ON FUNCTION hrvmon_study.erase_own(text) FROM PUBLIC;
            GRANT EXECUTE ON FUNCTION hrvmon_study.erase_own(text) TO \(group);
            REVOKE DELETE ON \(tables) FROM \(group);
            """
    }
}
