import ArgumentParser
import Platform
import Presentation
import SessionLog
import UserData

struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the recorded sessions: when, how long, which sensor, mean HR, RMSSD, stress and exercises.",
        discussion: "Sessions live in \(SessionStore.directory) (one JSON Lines file each, README: \"Session files\").")

    @Option(help: "text, json (one object) or csv.")
    var format: OutputFormat = .text

    @Option(help: "Only sessions started in the last N days (local calendar days, today included).")
    var days: Int?

    func validate() throws {
        if let days, days < 1 { throw ValidationError("--days must be 1 or more") }
    }

    func run() throws {
        var sessions: [SessionOverview]
        if let days, let first = CalendarDay(DataDirectory.today)?.adding(days: -(days - 1)) {
            sessions = SessionOverview.all(since: first).filter { WallClock.day($0.start) >= first.text }
        } else {
            sessions = SessionOverview.all()
        }
        var output = FileStream.standardOutput
        switch format {
        case .text: output.write(Self.table(sessions))
        case .json: output.write("[" + sessions.map { Self.object($0).serialized }.joined(separator: ",") + "]\n")
        case .csv:
            output.write("id,start,duration_s,device,beats,hr_bpm,rmssd_ms,stress_min,exercises,notes,ended\n")
            for session in sessions {
                let cells = [
                    session.id, WallClock.iso8601(session.start), String(session.seconds), Self.csvField(session.device),
                    String(session.beats), session.heartRate.map { String($0) } ?? "", session.rmssd.map { String($0) } ?? "",
                    String(session.stressSeconds / 60), String(session.exercises), String(session.notes.count), String(session.ended),
                ]
                output.write(cells.joined(separator: ",") + "\n")
            }
        }
        output.flush()
    }

    static func table(_ sessions: [SessionOverview]) -> String {
        guard !sessions.isEmpty else { return "no sessions yet in \(SessionStore.directory); `hrvmon monitor` records one\n" }
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
        }
        if sessions.contains(where: { !$0.ended }) {
            text += "* no summary line yet: still running, or ended abruptly; its numbers come from replaying the file\n"
        }
        return text
    }

    static func object(_ session: SessionOverview) -> JSONObject {
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
        object.add("ended", session.ended)
        return object
    }

    static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }
}
