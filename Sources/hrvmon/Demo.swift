import ArgumentParser
import BlueZ
import DBus
import HRV
import Monitor
import Settings
import Simulation

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "See hrvmon at work without a strap: a simulated session through the live pipeline and dashboard.",
        discussion: """
            Plays the bundled scenario — 3 min of rest (the session baseline is calibrated on it), 3 min \
            of mental stress, 2 min of paced breathing, 2 min of recovery, with three ectopic beats — as a \
            strap sends it, a notification a second, through exactly what `monitor` runs, --speed times \
            faster than real time. At the default speed the stress prompt comes about half a minute in. \
            In the breathing segment the demo takes the exercise for you (or press b earlier), and its \
            measured effect follows. On a terminal the dashboard stays after the end until q; otherwise \
            the demo prints lines and exits at the end. No session file is written unless --log asks \
            for one, and your personal baseline is neither used nor changed.
            """)

    static let strapName = "hrvmon demo strap"
    /// From the range RFC 7042 sets aside for documentation.
    static let strapAddress = "00:00:5E:00:53:01"

    @Option(help: "Run this many times faster than real time; 10 plays the 10-minute scenario in a minute.")
    var speed: Double = 10

    @Option(help: "Random seed of the simulation.")
    var seed: UInt64 = 1

    @Option(help: "A preset (demo, stress-test, workout, …) or a segment list as `hrvmon simulate` takes.")
    var scenario = "demo"

    @Option(help: "Stop after this many seconds of the session (simulated time).")
    var duration: Double?

    @OptionGroup var display: DisplayOptions

    @Option(help: "Write the demo session to this file (a new or empty file; created 0600). Without it nothing is kept.")
    var log: String?

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        guard speed > 0, speed <= 1000 else { throw ValidationError("--speed must be above 0 and at most 1000") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be more than 0 seconds") }
    }

    func run() throws {
        let settings = try config.load()
        let chosen: Scenario
        do {
            chosen = try Scenario(presetOrSpec: scenario)
        } catch {
            throw badInput(error)
        }
        let timeline = DemoTimeline(scenario: chosen, seed: seed, duration: duration)
        let pattern = try settings.breathing.exercisePattern()
        // The demo calibrates on its own first minutes, whatever the user's personal baseline.
        let run = SessionRun(
            session: LiveSession(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: nil)), outputs: [])

        let loop = EventLoop()
        let start = WallClock.now()
        let started = EventLoop.now()
        let speed = speed
        // Session time runs `speed` times faster than the wall; every event is stamped with it.
        let clock = { start + (EventLoop.now() - started) * speed }
        let stop = { loop.stop() }
        Interruption.watch(on: loop, stop)
        let title = "demo ×" + Formatting.fixed(speed, digits: speed == speed.rounded() ? 0 : 1)
        let dashboard = try run.show(display, title: title, start: start, settings: settings, loop: loop, clock: clock, stop: stop)
        defer { dashboard?.close() }
        run.notifyDesktop(settings.notify, loop: loop)
        let header = SessionHeader(
            id: WallClock.compact(start), start: start, startLocal: WallClock.iso8601(start), source: "demo",
            deviceName: Self.strapName, deviceAddress: Self.strapAddress, baseline: nil, settings: settings)
        if let log { _ = try run.recordToFile(at: log, header: header, settings: settings, loop: loop, stop: stop) }
        run.takeNotes(loop: loop, clock: clock)
        run.report(.sensor(.identity(name: Self.strapName, address: Self.strapAddress)), at: start)
        run.report(.sensor(.bodySensorLocation("chest")), at: start)
        run.report(.sensor(.batteryLevel(87)), at: start)
        run.report(.link(LinkStatus(.connected, "simulated")), at: start)

        var finished = false
        func finish(at time: Double) {
            guard !finished else { return }
            finished = true
            run.finish(at: time, seconds: time - start)
        }
        var next = 0
        var tookExercise = false
        func play() {
            while next < timeline.steps.count, started + timeline.steps[next].seconds / speed <= EventLoop.now() {
                let step = timeline.steps[next]
                let time = start + step.seconds
                next += 1
                switch step.action {
                case .notification(let bytes):
                    run.receive(bytes, at: time)
                case .segment(let segment):
                    run.report(.notice(Self.describe(segment)), at: time)
                case .startExercise where !run.session.isExercising:
                    run.toggleExercise(pattern.name, at: time)
                    tookExercise = true
                case .stopExercise where tookExercise:
                    if run.session.isExercising { run.toggleExercise(pattern.name, at: time) }
                    tookExercise = false
                case .startExercise, .stopExercise:
                    break
                case .end:
                    // On a terminal with keys the dashboard stays until q; otherwise the demo is over.
                    if dashboard?.acceptsKeys == true { finish(at: time) } else { loop.stop() }
                }
            }
            if next < timeline.steps.count { loop.schedule(at: started + timeline.steps[next].seconds / speed, play) }
        }
        play()
        loop.run()
        finish(at: min(clock(), start + (timeline.steps.last?.seconds ?? 0)))
        dashboard?.close()
    }

    static func describe(_ segment: Segment) -> String {
        let what = switch segment.kind {
        case .rest: "seated rest"
        case .stress: "mental stress"
        case .breathing: "paced breathing at \(Formatting.fixed(segment.breathingRate, digits: 0)) a minute"
        case .activity: "physical activity"
        case .recovery: "recovery"
        }
        return "demo: \(Formatting.duration(segment.duration)) of \(what) (simulated heart rate \(Formatting.fixed(segment.heartRate, digits: 0)) bpm, RMSSD \(Formatting.fixed(segment.rmssd, digits: 0)) ms)"
    }
}
