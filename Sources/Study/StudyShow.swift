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
    }

    public static func summary(_ membership: Membership, sessions: [String]) -> Summary {
        var summary = Summary()
        let sent = SentState.load()
        for path in sessions {
            guard let file = try? SessionFileReader.read(path: path, detail: .beats), file.header.start >= membership.acceptedTime else { continue }
            let mark = sent.entries[SessionStore.id(of: path)]?.lastSequence ?? -1
            let sentBeats = file.beats.filter { $0.sequence <= mark }.count
            if sentBeats > 0 { summary.sessionsSent += 1 }
            summary.beatsSent += sentBeats
            if sentBeats < file.beats.count { summary.sessionsWaiting += 1 }
            summary.beatsWaiting += file.beats.count - sentBeats
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
        let shifted = membership.timeShift == .none
            ? ""
            : "\ntimes: the study shifts them; yours are sent moved by a random offset kept only on this computer (the RR intervals are unchanged)"
        return """
            study: \(membership.study)
            pseudonym: \(membership.pseudonym)
            consent: version \(membership.consentVersion) (SHA-256 \(membership.consentSHA256)), accepted \(membership.accepted.split(separator: " ").last ?? "")
            categories chosen: \(membership.categories.joined(separator: ", "))\(notSent.isEmpty ? "" : "; never sent: " + notSent.joined(separator: ", "))
            \(rr)\(checkIns)\(notes)\(events)\(shifted)\(membership.left.map { "\nleft the study \($0.split(separator: " ").last ?? ""): nothing more is sent" } ?? "")

            """
    }
}
