import SessionLog

/// The statements a participant's hrvmon sends a session with, shared by `study sync` (one
/// statement at a time) and `StudyUploader` (while recording, asynchronously). Each is one
/// statement with its parameters: committed whole or not at all. Every time and session id in
/// them is the participant's `shift`ed one (`TimeShift.none` when the study does not shift).
enum StudyStatements {
    /// The session's row, and how far it was recorded here (its end, or its last beat so far, and
    /// its beats): a session whose beats did not all arrive shows as a gap in `status`. Sent again,
    /// it only moves forward.
    static func session(_ id: String, _ file: SessionFile, shift: TimeShift) -> (String, [String?]) {
        (
            """
            INSERT INTO hrvmon_study.sessions AS s (session, started, recorded_until, recorded_beats) VALUES ($1, $2, $3, $4)
            ON CONFLICT (participant, session) DO UPDATE SET
                recorded_until = greatest(s.recorded_until, excluded.recorded_until),
                recorded_beats = greatest(s.recorded_beats, excluded.recorded_beats)
            """,
            [shift.session(id), "\(shift.time(file.header.start))", "\(shift.time(recordedUntil(file)))", String(file.beats.count)]
        )
    }

    /// Unix seconds to which `file` recorded: its end, or its last beat while it is recorded.
    static func recordedUntil(_ file: SessionFile) -> Double {
        max(file.summary?.time ?? file.header.start, file.beats.last?.time ?? file.header.start)
    }

    /// A batch of beats; a beat the server has (participant, session, sequence number) is not
    /// stored again, so a batch whose acknowledgement was lost can be sent again.
    static func beats(_ beats: ArraySlice<SessionFile.RawBeat>, session: String, shift: TimeShift) -> (String, [String?]) {
        let list = { (values: [String]) in "{" + values.joined(separator: ",") + "}" }
        return (
            """
            INSERT INTO hrvmon_study.beats (session, seq, time, rr_ticks)
            SELECT $1, u.seq, u.time, u.rr FROM unnest($2::integer[], $3::double precision[], $4::integer[]) AS u(seq, time, rr)
            ON CONFLICT DO NOTHING
            """,
            [shift.session(session), list(beats.map { String($0.sequence) }), list(beats.map { "\(shift.time($0.time))" }), list(beats.map { String($0.ticks) })]
        )
    }

    /// The last beat's sequence number the server holds of one session of this participant (-1: none).
    static func mark(session: String, shift: TimeShift) -> (String, [String?]) {
        ("SELECT coalesce(max(seq), -1) FROM hrvmon_study.beats WHERE participant = current_user AND session = $1", [shift.session(session)])
    }
}
