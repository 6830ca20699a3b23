import Platform
import ArgumentParser
import DBus
import HRV
import Settings

/// Where a session's file goes: `--log PATH`, `--no-log`, or (for `monitor`) the sessions directory.
struct SessionFileOptions: ParsableArguments {
    @Option(help: "Write the session file here instead of the sessions directory (a new or empty file; created 0600).")
    var log: String?

    @Flag(name: .customLong("no-log"), help: "Keep no session file.")
    var noLog = false

    func validate() throws {
        if log != nil && noLog { throw ValidationError("--log and --no-log exclude each other") }
    }
}

extension SessionHeader {
    /// The header of a session file yet to be made: `recordToFile` gives it the file's id.
    init(start: Double, source: String, deviceName: String? = nil, deviceAddress: String?, baseline: Baseline?, settings: Settings) {
        self.init(
            id: "", start: start, startLocal: WallClock.iso8601(start), source: source, deviceName: deviceName,
            deviceAddress: deviceAddress, baseline: baseline, settings: settings)
    }
}

extension SessionRun {
    /// Opens the session file at `path`, or in the sessions directory when `path` is nil, and
    /// records to it under its id. A file that cannot be made is reported through `report` and,
    /// with `log.on_error = stop`, fails the command (exit 1); otherwise the session runs without.
    func recordToFile(
        at path: String?, header: SessionHeader, loop: EventLoop, stop: @escaping () -> Void
    ) throws -> SessionRecorder? {
        let settings = header.settings
        let file: SessionStore.OpenedFile
        do {
            file = try path.map { try SessionStore.create(explicit: $0) } ?? SessionStore.create(start: header.start)
        } catch {
            let message = "cannot create the session log \(error)"
            guard !settings.log.stopsOnError else {
                FileStream.printError("hrvmon: \(message) (log.on_error = stop)")
                throw ExitCode(1)
            }
            report(.notice(message + "; monitoring goes on without it (log.on_error = warn)"), at: header.start)
            return nil
        }
        var header = header
        header.id = file.id
        let recorder = SessionRecorder(
            descriptor: file.descriptor, path: file.path, header: header, settings: settings.log, now: EventLoop.now,
            schedule: { delay, action in loop.schedule(after: delay, action) })
        recorder.onFailure = { [unowned self] message, shouldStop in
            report(.notice(message), at: WallClock.now())
            if shouldStop { stop() }
        }
        add(recorder, first: true)
        return recorder
    }
}
