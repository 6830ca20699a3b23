import Foundation
import HRV
import LivePipeline
import LiveSession
import SessionLog
import Settings

extension SessionRun {
    /// A session with default settings whose file `path` a real `SessionRecorder` writes, on a
    /// virtual clock (no syncs timed), beside `outputs`.
    public static func recording(to path: String, header: SessionHeader, outputs: [SessionOutput] = []) throws -> SessionRun {
        let settings = Settings()
        let recorder = SessionRecorder(
            descriptor: open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600), path: path, header: header, settings: settings.log,
            now: { 0 }, schedule: { _, _ in })
        return SessionRun(
            session: SessionPipeline(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: nil)),
            outputs: [recorder] + outputs)
    }
}
