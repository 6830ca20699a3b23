import Platform
import Recordings
import SessionLog

extension IndexedSession {
    /// The entry of the session file at `path`. A session without a summary (still recording,
    /// or ended abruptly) is replayed for its numbers, as `sessions` always did.
    static func read(_ path: String, key: Key) throws(RecordingError) -> IndexedSession {
        var file = try readFile(path, detail: .beats)
        var entry = IndexedSession(key: key, file: file)
        guard file.summary == nil else { return entry }
        file = try readFile(path, detail: .full)
        guard let settings = try? SessionReplay.settings(of: file, source: path),
            let session = try? SessionReplay.replay(file, settings: settings, baseline: file.header.baseline)
        else { return entry }
        entry.seconds = (file.beats.last?.time ?? file.header.start) - file.header.start
        entry.beats = session.recording.rawBeats
        entry.heartRate = session.recording.metrics?.meanHR
        entry.rmssd = session.recording.metrics?.rmssd
        entry.sdnn = session.recording.metrics?.sdnn
        entry.stressSeconds = session.judge.episodes.stressSeconds
        entry.exercises = session.judge.effects.count
        return entry
    }

    private static func readFile(_ path: String, detail: SessionFileReader.Detail) throws(RecordingError) -> SessionFile {
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
}
