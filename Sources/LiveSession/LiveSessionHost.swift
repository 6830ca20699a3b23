import Dashboard
import HRV
import LivePipeline
import Platform
import Presentation
import SessionLog
import UserData

/// A session as `monitor` and `demo` run it on their event loop: shown as the dashboard or as
/// lines, its suggestions on the desktop too, recorded to its file when asked, and taking notes
/// from `hrvmon note` until it ends. The command feeds `run` from its own source of beats.
public struct LiveSessionHost {
    public let run: SessionRun
    /// The dashboard on a terminal; nil for lines.
    public let dashboard: Dashboard?
    /// The session file's writer; nil without a file.
    public let recorder: SessionRecorder?
    /// A session file was asked for (it may not have been made).
    private let recording: Bool
    /// The sensor, when the session is one of several.
    private let sensor: String?
    private let loop: EventLoop

    /// The session judges against the header's baseline (nil: it calibrates on its first
    /// minutes). `record`: keep a session file, at `path` or (nil) in the sessions directory.
    /// Text lines and the dashboard's log say when by `eventTime`.
    /// Every event is stamped with `clock`; `stop` ends the loop (the keys' q, a failed file).
    /// One of several sessions (`monitor` with several sensors) names its `sensor` on its lines
    /// and leaves `hrvmon note` to its `SessionGroup` (`takesNotes` false); with `display` nil it
    /// is shown by the group's dashboard.
    public init(
        _ header: SessionHeader, record: Bool, at path: String?, display: SessionDisplay?, sensor: String? = nil,
        takesNotes: Bool = true, title: String, eventTime: EventTime = .timeOfDay, loop: EventLoop, clock: @escaping () -> Double,
        stop: @escaping () -> Void
    ) throws {
        let settings = header.settings
        run = SessionRun(
            session: SessionPipeline(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: header.baseline)),
            outputs: [])
        let run = run
        dashboard = display.flatMap {
            run.show(
                $0, sensor: sensor, title: title, eventTime: eventTime, start: header.start, settings: settings, loop: loop, clock: clock,
                stop: stop)
        }
        do {
            run.notifyDesktop(settings.notify, loop: loop, namesSensor: sensor != nil, clock: clock)
            recorder = record ? try run.recordToFile(at: path, header: header, loop: loop, stop: stop) : nil
        } catch {
            dashboard?.close()
            throw error
        }
        recording = record
        self.sensor = sensor
        if takesNotes { run.takeNotes(loop: loop, clock: clock) }
        if let dashboard { run.pace(dashboard, voice: settings.breathing.sound, at: clock()) }
        self.loop = loop
    }

    /// Runs the loop until something stops it; then the session ends at `end` (unless it has
    /// ended already) and the dashboard gives the terminal back, with the summary on it.
    public func runUntilStopped(finishing end: () -> (time: Double, seconds: Double)) {
        loop.run()
        finish(end)
    }

    /// Ends the session at `end` (unless it has ended already); the dashboard gives the terminal
    /// back, with the summary on it.
    public func finish(_ end: () -> (time: Double, seconds: Double)) {
        if !run.isFinished {
            let (time, seconds) = end()
            run.finish(at: time, seconds: seconds)
        }
        dashboard?.close()
    }

    /// Where the session was kept, for the end of its output: `saved as …`, or why not
    /// (`unsaved`: it was not asked for, and how to ask); after the sensor when it is one of several.
    private func whereKept(unsaved: String) -> String {
        let label = sensor.map { "[\($0)]  " } ?? ""
        guard let recorder else { return label + (recording ? "not saved: the session file could not be made (see above)" : unsaved) }
        if recorder.failed { return label + "not saved whole: writing \(recorder.path) failed (see above)" }
        guard recorder.path.hasPrefix(SessionStore.directory + "/") else { return label + "saved as \(recorder.path)" }
        return label + "saved as session \(SessionStore.id(of: recorder.path)) in \(SessionStore.directory); `hrvmon sessions` lists it"
    }

    /// Says where the session was kept (`whereKept`) after its summary, on stdout, wrapped to the
    /// terminal's width when it is one. JSON Lines keep stdout for programs: there it goes on
    /// stderr when a file was asked for, and the `unsaved` hint is not said.
    public func sayWhereKept(unsaved: String, display: SessionDisplay?) {
        let text = whereKept(unsaved: unsaved)
        guard display != .lines(.jsonl) else {
            if recording { FileStream.printError(text) }
            return
        }
        var output = FileStream.standardOutput
        for line in Formatting.wrap(line: text, width: Terminal.outputColumns, hanging: 2) { output.write(line + "\n") }
        output.flush()
    }

    /// Adds the resting values the session measured to the personal history, when its file was
    /// kept whole (the history points at it), on the local day it started, with its UTC offset;
    /// the failure, if the history cannot be written.
    public func keepRestingValues(startedAt start: Double) -> DataDirectory.Failure? {
        guard let recorder, !recorder.failed, let measured = run.session.judge.detector.sessionBaseline else { return nil }
        do {
            try DataDirectory.updateHistory {
                $0.record(RestingMeasurement(
                    day: WallClock.day(start), measured: measured, source: SessionStore.id(of: recorder.path), time: start,
                    utcOffset: WallClock.utcOffset(start)))
            }
            return nil
        } catch {
            return error
        }
    }
}
