import LiveSession
import Platform
import Presentation
import Study

/// A live session sent to the study the user takes part in while it is recorded (`monitor`,
/// `check`, `resonance`): `StudyUploader` on the session's loop, and at the end one line on what
/// was sent. Without a study, or without a session file, it does nothing.
final class StudySending {
    private let uploader: StudyUploader?
    /// Why the session is not sent as it is recorded (a damaged membership), said at the end.
    private let problem: String?

    /// Starts sending the session file `recorder` writes on `loop` (before the link starts).
    init(_ recorder: SessionRecorder?, loop: EventLoop) {
        do {
            uploader = try recorder.flatMap { recorder throws(StudyFailure) in try StudyUploader.forSession(at: recorder.path, loop: loop) }
            problem = nil
        } catch {
            uploader = nil
            problem = error.description
        }
        uploader?.start()
    }

    /// After the session ended: sends what is left if the server is there, then says (on stdout,
    /// or on stderr when stdout is for programs) what was sent and what `study sync` will send.
    func finish(toStandardError: Bool) {
        uploader?.finish()
        let line: String
        if let problem {
            line = "study: this session was not sent as it was recorded (\(problem))"
        } else if let uploader {
            let waiting = uploader.beatsWaiting
            line =
                waiting == 0
                ? "study: \(uploader.beatsSent) beats sent to the study as they were recorded"
                : "study: \(uploader.beatsSent) beats sent as they were recorded; \(waiting) waiting\(uploader.lastFailure.map { " (\($0))" } ?? ""): `hrvmon study sync` sends them"
        } else {
            return
        }
        guard !toStandardError else { return FileStream.printError(line) }
        var output = FileStream.standardOutput
        for wrapped in Formatting.wrap(line: line, width: Terminal.outputColumns, hanging: 2) { output.write(wrapped + "\n") }
        output.flush()
    }
}
