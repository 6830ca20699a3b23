import Platform
import Recordings
import SessionLog
import UserData

/// One line of `hrvmon sessions`: what a session file says about itself. A session that ended
/// abruptly has no summary line; its numbers then come from replaying it.
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

    public static func load(_ path: String) throws(RecordingError) -> SessionOverview {
        var file = try read(path, detail: .overview)
        var overview = SessionOverview(
            path: path, id: SessionStore.id(of: path), start: file.header.start,
            device: file.header.deviceName ?? file.header.deviceAddress ?? "unknown sensor", seconds: 0, beats: 0,
            stressSeconds: 0, exercises: 0, notes: file.notes, selfReport: SessionSelfReport(file), ended: file.summary != nil, tornLine: file.tornLine)
        if let summary = file.summary {
            overview.seconds = summary.seconds
            overview.beats = summary.beats
            overview.heartRate = summary.heartRate
            overview.rmssd = summary.rmssd
            overview.stressSeconds = summary.stressSeconds
            overview.exercises = summary.exercises
            return overview
        }
        file = try read(path, detail: .full)
        guard let settings = try? SessionReplay.settings(of: file, source: path),
            let session = try? SessionReplay.replay(file, settings: settings, baseline: file.header.baseline)
        else { return overview }
        overview.seconds = (file.beats.last?.time ?? file.header.start) - file.header.start
        overview.beats = session.recording.rawBeats
        overview.heartRate = session.recording.metrics?.meanHR
        overview.rmssd = session.recording.metrics?.rmssd
        overview.stressSeconds = session.judge.episodes.stressSeconds
        overview.exercises = session.judge.effects.count
        return overview
    }

    private static func read(_ path: String, detail: SessionFileReader.Detail) throws(RecordingError) -> SessionFile {
        do {
            return try SessionFileReader.read(path: path, detail: detail)
        } catch let error as RecordingError {
            throw error
        } catch let error as FileOpenError {
            throw RecordingError(source: path, line: nil, problem: error.reason)
        } catch {
            throw RecordingError(source: path, line: nil, problem: "\(error)")
        }
    }

    /// Every session in the sessions directory, oldest first; an unreadable file is handed to
    /// `skipping` and left out, so one damaged file does not hide the others.
    public static func all(since day: CalendarDay? = nil, skipping: (RecordingError) -> Void) -> [SessionOverview] {
        SessionStore.all(since: day).compactMap { path in
            do throws(RecordingError) { return try load(path) } catch {
                skipping(error)
                return nil
            }
        }
    }
}
