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
            (liblsl is loaded at run time: liblsl.so.2 or $HRVMON_LIBLSL).
            """)

    @OptionGroup var sensor: SensorOptions

    @OptionGroup var display: DisplayOptions

    @OptionGroup var sessionFile: SessionFileOptions

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @OptionGroup var lsl: LSLOptions

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
    }

    func run() throws {
        // The resonance pattern suggested and paced at the rate the user's assessment found.
        let settings = display.applied(to: try config.load().withStoredResonance().settings)
        let lslLibrary = try lsl.library()
        let baseline = try badInputOnFailure { try DataDirectory.personalBaseline(settings) }
        let start = WallClock.now()
        var publisher: LSLPublisher?
        let host = try sensor.runSession(
            settings: settings, baseline: baseline, display: display.display, record: !sessionFile.noLog, log: sessionFile.log,
            title: "monitor", duration: duration
        ) { host, _, _ in
            publisher = lslLibrary.map { LSLPublisher(library: $0, timestamps: .live) }
            if let publisher { host.run.publishToLSL(publisher) }
        }
        publisher?.close()
        if host.recorder?.failed == true, settings.log.stopsOnError { throw ExitCode(1) }
        if let failure = host.keepRestingValues(startedAt: start) {
            FileStream.printError("hrvmon: cannot add this session's resting values to the personal baseline: \(failure)")
        }
    }
}
