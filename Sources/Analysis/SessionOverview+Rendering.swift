import Platform
import Presentation
import SessionLog

/// `hrvmon sessions` in its formats: a table for people, a JSON object and a CSV line per session.
extension SessionOverview {
    /// The sessions as a table, with their notes and a key to `*`; `directory` is where they are kept.
    public static func table(_ sessions: [SessionOverview], directory: String) -> String {
        guard !sessions.isEmpty else { return "no sessions yet in \(directory); `hrvmon monitor` records one\n" }
        let rows = [["ID", "STARTED", "DURATION", "SENSOR", "HR", "RMSSD", "STRESS", "EXERCISES", "NOTES"]] + sessions.map { session in
            [
                session.id + (session.ended ? "" : "*"),
                WallClock.day(session.start) + " " + WallClock.timeOfDay(session.start),
                Formatting.duration(session.seconds),
                session.device,
                session.heartRate.map { Formatting.fixed($0, digits: 0) + " bpm" } ?? "–",
                session.rmssd.map { Formatting.fixed($0, digits: 1) + " ms" } ?? "–",
                Formatting.fixed(session.stressSeconds / 60, digits: 0) + " min",
                String(session.exercises),
                String(session.notes.count),
            ]
        }
        var text = Formatting.columns(rows)
        for session in sessions {
            for note in session.notes { text += "  \(session.id) \(WallClock.timeOfDay(note.time))  note: \(note.text)\n" }
            text += session.checkInLines()
        }
        if sessions.contains(where: { !$0.ended }) {
            text += "* no summary line yet: still running, or ended abruptly; its numbers come from replaying the file\n"
        }
        return text
    }

    public var json: JSONObject {
        let session = self
        var object = JSONObject()
        object.add("id", session.id)
        object.add("path", session.path)
        object.add("start", session.start)
        object.add("start_local", WallClock.iso8601(session.start))
        object.add("duration_s", session.seconds)
        object.add("device", session.device)
        object.add("beats", session.beats)
        object.add("hr_bpm", session.heartRate)
        object.add("rmssd_ms", session.rmssd)
        object.add("stress_s", session.stressSeconds)
        object.add("exercises", session.exercises)
        object.add("notes", session.notes.map { note in
            var item = JSONObject()
            item.add("t", note.time)
            item.add("text", note.text)
            return item
        })
        session.addSelfReport(to: &object)
        object.add("ended", session.ended)
        return object
    }

    /// The CSV columns, in the order of `csvLine`.
    public static let csvHeader = "id,start,duration_s,device,beats,hr_bpm,rmssd_ms,stress_min,exercises,notes,ended"

    public var csvLine: String {
        [
            id, WallClock.iso8601(start), String(seconds), CSV.field(device), String(beats), heartRate.map { String($0) } ?? "",
            rmssd.map { String($0) } ?? "", String(stressSeconds / 60), String(exercises), String(notes.count), String(ended),
        ].joined(separator: ",")
    }
}
