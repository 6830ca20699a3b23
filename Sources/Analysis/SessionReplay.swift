import HRV
import LivePipeline
import SessionLog
import Settings

/// A recorded session given to the live pipeline again, step by step in the recorded order
/// (notifications, gaps, exercises): the same numbers as the live session by construction.
public enum SessionReplay {
    /// The settings the session ran with, from its header.
    public static func settings(of file: SessionFile, source: String) throws -> Settings {
        try SettingsFile.parse(file.header.configuration, source: "\(source) (its header's config)")
    }

    /// Replays `file`; `emit` sees every event the live session saw.
    public static func replay(
        _ file: SessionFile, settings: Settings, baseline: Baseline?, emit: (LiveEvent) -> Void = { _ in }
    ) throws -> SessionPipeline {
        var session = SessionPipeline(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: baseline))
        var lastTime = file.header.start
        for step in file.steps {
            switch step {
            case .packet(let measurement, let time):
                session.receive(measurement, at: time, emit: emit)
                lastTime = time
            case .malformed(let bytes, let time):
                session.receive(bytes, at: time, emit: emit)
            case .motion(let motion):
                session.receive(motion.second, at: motion.time)
            case .gap(let time):
                session.breakContinuity(at: time, emit: emit)
            case .desk(let change, _):
                session.receive(desk: change.presence)
            case .exercise(let mark):
                switch mark.kind {
                case .started: session.startExercise(mark.pattern, at: mark.time, emit: emit)
                case .stopped: session.stopExercise(at: mark.time, emit: emit)
                }
            }
        }
        session.finish(at: file.summary?.time ?? lastTime, emit: emit)
        return session
    }
}
