import ArgumentParser
import LabStreamingLayer
import LiveSession
import Platform
import Presentation
import SessionLog
import Simulation

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "See hrvmon at work without a strap: a simulated session through the live pipeline and dashboard.",
        discussion: """
            Plays the bundled scenario: 3 min of rest (the session baseline is calibrated on it), 3 min \
            of mental stress, 2 min of paced breathing and 2 min of recovery, with three ectopic beats, as a \
            strap sends it, a notification a second, through exactly what `monitor` runs, --speed times \
            faster than real time. At the default speed the stress prompt comes about half a minute in. \
            In the breathing segment the demo takes the exercise for you (or press b earlier), and its \
            measured effect follows. On a terminal the dashboard stays after the end until q; otherwise \
            the demo prints lines and exits at the end. Events are shown at their time into the \
            session (m:ss), as the demo runs faster than the clock on the wall. Nothing is kept unless \
            --save (the sessions directory, where `hrvmon sessions` and `hrvmon report` find it, on a \
            time axis that starts when the demo did and runs at the simulated pace) or --log asks; the \
            end of the output says which. Your personal baseline is neither used nor changed. With \
            --lsl the demo strap's beats and markers go out as Lab Streaming Layer streams, stamped in \
            session time.
            """)

    @Option(parsing: .unconditional, help: "Run this many times faster than real time; 10 plays the 10-minute scenario in a minute.")
    var speed = DemoPlayback.defaultSpeed

    @Option(parsing: .unconditional, help: "Random seed of the simulation.")
    var seed: UInt64 = 1

    @Option(help: "A preset (demo, stress-test, workout...) or a segment list as `hrvmon simulate` takes.")
    var scenario = "demo"

    @Option(parsing: .unconditional, help: "Stop after this many seconds of the session (simulated time).")
    var duration: Double?

    @OptionGroup var display: DisplayOptions

    @Flag(help: "Keep the demo session in the sessions directory, named by its start as monitor's are.")
    var save = false

    @Option(help: "Write the demo session to this file (a new or empty file; created 0600). Without it or --save nothing is kept.")
    var log: String?

    @Flag(help: "Stream the simulated strap's ECG too (130 Hz), as monitor --ecg does: kept in the session file with --save or --log.")
    var ecg = false

    @OptionGroup var lsl: LSLOptions

    @Option(parsing: .unconditional, help: "With --lsl: before playing, wait up to this many seconds for an inlet on each LSL stream, so it receives the first beat.")
    var lslWait: Double?

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        guard speed > 0, speed <= 1000 else { throw ValidationError("--speed must be above 0 and at most 1000") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
        if save, log != nil { throw ValidationError("--save keeps the session in the sessions directory and --log writes it to a file of yours: choose one") }
        if let log { try SessionFileOptions.checkDirectory(of: log) }
        if let lslWait {
            guard lsl.lsl else { throw ValidationError("--lsl-wait goes with --lsl") }
            guard lslWait > 0, lslWait <= 600 else { throw ValidationError("--lsl-wait must be more than 0 and at most 600 seconds") }
        }
    }

    func run() throws {
        let settings = display.applied(to: try config.load())
        let lslLibrary = try lsl.library()
        let chosen: Scenario
        do {
            chosen = try Scenario(presetOrSpec: scenario)
        } catch {
            throw badInput(error)
        }
        let timeline = DemoTimeline(scenario: chosen, seed: seed, duration: duration, ecg: ecg)

        let loop = EventLoop()
        let stop = { loop.stop() }
        Interruption.watch(on: loop, stop)
        let (streams, inletsConnected) = try lslLibrary.map(openStreams) ?? (nil, true)
        let start = WallClock.now()
        // Session time runs `speed` times faster than the wall, and at real time while a breathing
        // exercise runs; every event is stamped with it.
        let clock = DemoClock(start: start, speed: speed, now: EventLoop.now)
        let title = "demo ×" + Formatting.fixed(speed, digits: speed == speed.rounded() ? 0 : 1)
        // The demo calibrates on its own first minutes, whatever the user's personal baseline.
        let header = SessionHeader(
            start: start, source: "demo", deviceName: DemoPlayback.strapName, deviceAddress: DemoPlayback.strapAddress, baseline: nil, settings: settings)
        let host = try startingSession {
            try LiveSessionHost(
                header, record: save || log != nil, at: log, display: display.display, title: title, eventTime: .intoSession(start: start),
                loop: loop, clock: { clock.time }, stop: stop)
        }
        let run = host.run
        let publisher = lslLibrary.map { LSLPublisher(library: $0, timestamps: .session(start: start), streams: streams) }
        if let publisher { run.publishToLSL(publisher) }
        if !inletsConnected, let lslWait {
            run.report(.notice("no LSL inlet on both streams within \(Formatting.fixed(lslWait, digits: 0)) s; playing on"), at: start)
        }
        // Only the dashboard has a pacer to breathe with; lines keep the demo's speed throughout.
        // First: the pace changes the moment an exercise starts, before any other output spends
        // time on the event (writing the file, the pacer's first sound), or the pacer starts late.
        if host.dashboard != nil { run.add(clock, first: true) }
        DemoPlayback.announce(on: run, at: start)

        let feed = DemoFeed(timeline: timeline, run: run, loop: loop, clock: clock, start: start) { time in
            // On a terminal with keys the dashboard stays until q; otherwise the demo is over.
            if host.dashboard?.acceptsKeys == true { run.finish(at: time, seconds: time - start) } else { loop.stop() }
        }
        if let dashboard = host.dashboard {
            let perform = dashboard.perform
            dashboard.perform = { command in
                if case .toggleExercise = command { feed.toggleByUser() } else { perform(command) }
            }
        }
        feed.begin()
        host.runUntilStopped {
            let time = feed.endTime
            return (time, time - start)
        }
        publisher?.close()
        host.sayWhereKept(unsaved: "not saved: run `hrvmon demo --save` to keep it", display: display.display)
        host.recorder?.addToIndex()
    }

    /// The demo strap's LSL streams, opened before the session's clock starts, and whether an inlet
    /// came to each within `--lsl-wait` (true without it). A stream that cannot open exits 1.
    private func openStreams(_ library: LSLLibrary) throws -> (SensorStreams, Bool) {
        let streams: SensorStreams
        do {
            streams = try SensorStreams(sensorName: DemoPlayback.strapName, address: DemoPlayback.strapAddress, library: library)
            try streams.open(measurementData: [(.acc, SimulatedAccelerometer.defaultSampleRate)] + (ecg ? [(.ecg, SimulatedECG.sampleRate)] : []))
        } catch {
            FileStream.printError("hrvmon: cannot publish the LSL streams: \(error)")
            throw ExitCode(1)
        }
        guard let lslWait else { return (streams, true) }
        FileStream.printError("waiting up to \(Formatting.fixed(lslWait, digits: 0)) s for LSL inlets on \(streams.rr.stream.name) and \(streams.markers.stream.name)…")
        return (streams, streams.waitForInlets(timeout: lslWait))
    }
}
