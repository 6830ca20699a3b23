import ArgumentParser
import LiveSession
import Platform
import UserData

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Monitor a heart-rate sensor live: every notification through the HRV, baseline and stress pipeline.",
        discussion: """
            Without --device: the sensor used last time, or the only one found by a scan. The link is kept \
            up: after a drop hrvmon reconnects at once (with back-off only after failures) and says what it is doing. Ctrl-C stops \
            notifications, disconnects and exits 0. On a terminal the session is a full-screen dashboard \
            (b breathe, n note, q quit, ? help); otherwise, or with --no-dashboard, one line per event. \
            With --lsl the beats and the session's markers are also published as Lab Streaming Layer streams \
            (liblsl is loaded at run time: $HRVMON_LIBLSL, else pylsl's copy — $PYLSL_LIB or a pip-installed pylsl — or liblsl.so.2). \
            With --device given more than once, every sensor is followed at once, each with its own link, session \
            and file: one dashboard with a section per sensor (b, n and q act on every session), or lines that \
            name their sensor. Keyboard or pointer input at the desktop within the last minute (GNOME's Mutter, the \
            freedesktop ScreenSaver, else logind; desk.input, --no-desk) is taken as evidence of sitting. Only the first sensor's resting values go into the personal baseline; --log \
            takes one sensor.
            """)

    @OptionGroup var sensor: SensorOptions

    @OptionGroup var display: DisplayOptions

    @OptionGroup var sessionFile: SessionFileOptions

    @Option(parsing: .unconditional, help: "Stop after this many seconds.")
    var duration: Double?

    @OptionGroup var lsl: LSLOptions

    @Flag(help: "Leave the desktop's idle time unread (the configuration's desk.input = false): no input at the desk as evidence of sitting.")
    var noDesk = false

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
        if sensor.devices.count > 1, sessionFile.log != nil {
            throw ValidationError("--log names one file, and each of several sensors keeps its own: leave --log out (the files go to the sessions directory) or follow one --device")
        }
    }

    func run() throws {
        // The resonance pattern suggested and paced at the rate the user's assessment found.
        let settings = display.applied(to: try config.load().withStoredResonance().settings)
        let lslLibrary = try lsl.library()
        let baseline = try badInputOnFailure { try DataDirectory.personalBaseline(settings) }
        let start = WallClock.now()
        var publishers: [LSLPublisher] = []
        var sending: [StudySending] = []
        // The desk is the user's: with several sensors, the first --device's session reads it
        // (as only it adds to the personal baseline).
        var desk: DeskWatch?
        var isFirst = true
        let prepare = { (host: LiveSessionHost, loop: EventLoop) in
            if isFirst, !noDesk { desk = DeskWatch(settings.desk, for: host.run, loop: loop, clock: WallClock.now) }
            isFirst = false
            sending.append(StudySending(host.recorder, loop: loop))
            guard let lslLibrary else { return }
            let publisher = LSLPublisher(library: lslLibrary, timestamps: .live)
            host.run.publishToLSL(publisher)
            publishers.append(publisher)
        }
        let hosts =
            if sensor.devices.count > 1 {
                try sensor.runSessions(
                    settings: settings, baseline: baseline, display: display.display, record: !sessionFile.noLog, title: "monitor",
                    duration: duration, prepare: prepare)
            } else {
                [
                    try sensor.runSession(
                        settings: settings, baseline: baseline, display: display.display, record: !sessionFile.noLog, log: sessionFile.log,
                        title: "monitor", duration: duration
                    ) { host, loop, _ in prepare(host, loop) }
                ]
            }
        desk?.stop()
        for publisher in publishers { publisher.close() }
        for (host, sending) in zip(hosts, sending) {
            host.sayWhereKept(unsaved: "not saved (--no-log)", display: display.display)
            host.recorder?.addToIndex()
            sending.finish(toStandardError: display.display == .lines(.jsonl))
        }
        if hosts.contains(where: { $0.recorder?.failed == true }), settings.log.stopsOnError { throw ExitCode(1) }
        // The personal history is one person's: with several sensors, the first --device is the user's.
        if let failure = hosts[0].keepRestingValues(startedAt: start) {
            FileStream.printError("hrvmon: cannot add this session's resting values to the personal baseline: \(failure)")
        }
    }
}
