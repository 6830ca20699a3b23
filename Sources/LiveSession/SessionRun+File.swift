import HRV
import Platform
import Presentation
import SessionLog
import Settings
import UserData

/// The session file could not be made and `log.on_error = stop` says not to go on without it.
public struct SessionFileRequired: Error, CustomStringConvertible {
    public var description: String
}

extension SessionHeader {
    /// The header of a session file yet to be made: `recordToFile` gives it the file's id.
    public init(
        start: Double, source: String, deviceName: String? = nil, deviceAddress: String?, baseline: Baseline?,
        settings: Settings
    ) {
        self.init(
            id: "", start: start, startLocal: WallClock.iso8601(start), source: source, deviceName: deviceName,
            deviceAddress: deviceAddress, baseline: baseline, settings: settings, program: Program.nameAndVersion)
    }
}

extension SessionRun {
    /// Opens the session file at `path`, or in the sessions directory when `path` is nil, and
    /// records to it under its id. A file that cannot be made is reported as a notice and the
    /// session runs without it, unless `log.on_error = stop`: then it throws.
    public func recordToFile(
        at path: String?, header: SessionHeader, loop: EventLoop, stop: @escaping () -> Void
    ) throws(SessionFileRequired) -> SessionRecorder? {
        let settings = header.settings
        let file: SessionStore.OpenedFile
        do {
            file = try path.map { path throws(DataDirectory.Failure) in try SessionStore.create(explicit: path) }
                ?? SessionStore.create(start: header.start)
        } catch {
            let message = "cannot create the session log \(error)"
            guard !settings.log.stopsOnError else { throw SessionFileRequired(description: message + " (log.on_error = stop)") }
            report(.notice(message + "; monitoring goes on without it (log.on_error = warn)"), at: header.start)
            return nil
        }
        var header = header
        header.id = file.id
        let recorder = SessionRecorder(
            descriptor: file.descriptor, path: file.path, header: header, settings: settings.log, now: EventLoop.now,
            schedule: { delay, action in loop.schedule(after: delay, action) })
        // Sessions in the sessions directory are kept compressed once closed; a file the user
        // named is left as written.
        if path == nil { recorder.compress = SessionStore.compress }
        recorder.onFailure = { [unowned self] message, shouldStop in
            report(.notice(message), at: WallClock.now())
            if shouldStop { stop() }
        }
        add(recorder, first: true)
        return recorder
    }
}
