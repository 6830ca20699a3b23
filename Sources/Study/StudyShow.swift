import Analysis
import SessionLog
import UserData

/// `study show`: what this machine sent and what is waiting, from the local files alone (no
/// server needed): the membership, the sent state, the session files since consent.
public enum StudyShow {
    public struct Summary: Sendable {
        public var sessionsSent = 0
        public var beatsSent = 0
        public var sessionsWaiting = 0
        public var beatsWaiting = 0
        /// Files that could not be read, each with where and why: neither sent nor counted.
        public var damaged: [String] = []

        mutating func add(sent: Int, of beats: Int) {
            if sent > 0 { sessionsSent += 1 }
            beatsSent += sent
            if sent < beats { sessionsWaiting += 1 }
            beatsWaiting += beats - sent
        }
    }

    /// A file unchanged since it was sent whole is not read again, as `sync` does not read it: its
    /// beats are numbered 1 to the last one sent, so the sent state alone counts them (a year of
    /// 24/7 sessions is 3.7 GB to decompress).
    public static func summary(_ membership: Membership, sessions: [String]) -> Summary {
        var summary = Summary()
        let sent = SentState.load()
        for path in sessions {
            let entry = sent.entries[SessionStore.id(of: path)]
            if let entry, let mark = SentState.FileMark(path: path, categories: membership.categories), entry.file?.covers(mark) == true {
                // Recorded before consent: -1, nothing sent and nothing waiting.
                summary.add(sent: max(entry.lastSequence, 0), of: max(entry.lastSequence, 0))
                continue
            }
            let file: SessionFile
            do { file = try SessionFileReader.read(path: path, detail: .beats) } catch {
                summary.damaged.append("\(error)")
                continue
            }
            guard file.header.start >= membership.acceptedTime else { continue }
            let lastSent = entry?.lastSequence ?? -1
            summary.add(sent: file.beats.filter { $0.sequence <= lastSent }.count, of: file.beats.count)
        }
        return summary
    }

    public static func text(_ membership: Membership, _ summary: Summary) -> String {
        let chosen = Set(membership.categories)
        let notSent = StudyResearcher.categories.filter { !chosen.contains($0) }
        let rr = chosen.contains("rr")
            ? "rr: \(summary.beatsSent) beats sent in \(summary.sessionsSent) sessions; waiting: \(summary.beatsWaiting) beats in \(summary.sessionsWaiting) sessions (`hrvmon study sync` sends them)"
            : "rr: not chosen, nothing sent"
        let checkIns = chosen.contains("checkins")
            ? "\ncheckins: your check-ins (in sessions and in the diary) and answers to \"Was that stress?\" are sent with the beats"
            : ""
        let notes = chosen.contains("notes") ? "\nnotes: the notes you make during sessions are sent with the beats" : ""
        let events = chosen.contains("events")
            ? "\nevents: what your sessions recorded about themselves (stress and activity episodes, breathing exercises, suggestions, link changes) is sent with the beats"
            : ""
        let damaged = summary.damaged.map { "\ncannot be read, so neither sent nor counted: \($0)" }.joined()
        let shifted = membership.timeShift == .none
            ? ""
            : "\ntimes: the study shifts them; yours are sent moved by a random offset kept only on this computer (the RR intervals are unchanged)"
        return """
            study: \(membership.study)
            pseudonym: \(membership.pseudonym)
            consent: version \(membership.consentVersion) (SHA-256 \(membership.consentSHA256)), accepted \(membership.accepted.split(separator: " ").last ?? "")
            categories chosen: \(membership.categories.joined(separator: ", "))\(notSent.isEmpty ? "" : "; never sent: " + notSent.joined(separator: ", "))
            \(rr)\(damaged)\(checkIns)\(notes)\(events)\(shifted)\(membership.left.map { "\nleft the study \($0.split(separator: " ").last ?? ""): nothing more is sent" } ?? "")

            """
    }
}
