import Platform
import Recordings
import SessionLog
import UserData

/// One line of `hrvmon sessions`: what a session file says about itself. A session that ended
/// abruptly has no summary line; its numbers then come from replaying it (`IndexedSession.read`).
public struct SessionOverview {
    public var path: String
    public var id: String
    public var start: Double
    public var device: String
    public var seconds: Double
    public var beats: Int
    public var heartRate: Double?
    public var rmssd: Double?
    public var stressSeconds: Double
    public var exercises: Int
    public var notes: [SessionFile.Note]
    public var selfReport: SessionSelfReport
    /// False when the session ended without its summary (a crash, kill -9, power loss).
    public var ended: Bool
    public var tornLine: Int?
}

extension SessionOverview {
    public init(_ entry: IndexedSession) {
        self.init(
            path: entry.key.path, id: SessionStore.id(of: entry.key.path), start: entry.start, device: entry.device, seconds: entry.seconds,
            beats: entry.beats, heartRate: entry.heartRate, rmssd: entry.rmssd, stressSeconds: entry.stressSeconds,
            exercises: entry.exercises, notes: entry.notes, selfReport: SessionSelfReport(entry), ended: entry.ended, tornLine: entry.tornLine)
    }

    /// Every session in the sessions directory, oldest first, from the session index; an
    /// unreadable file is handed to `skipping` and left out, so one damaged file does not hide the
    /// others.
    public static func all(since day: CalendarDay? = nil, skipping: (RecordingError) -> Void) -> [SessionOverview] {
        SessionIndex.user.entries(of: SessionStore.all(since: day), skipping: skipping).map(SessionOverview.init)
    }
}
