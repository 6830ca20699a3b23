import Platform
import ArgumentParser
import BlueZ
import DBus
import HRV
import LivePipeline
import Settings
import Simulation

struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "See hrvmon at work without a strap: a simulated session through the live pipeline and dashboard.",
        discussion: """
            Plays the bundled scenario: 3 min of rest (the session baseline is calibrated on it), 3 min \
            of mental stress, 2 min of paced breathing and 2 min of recovery, with three ectopic beats, as a \
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

    @Option(help: "A preset (demo, stress-test, workout...) or a segment list as `hrvmon simulate` takes.")
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

        let loop = EventLoop()
        let start = WallClock.now()
        let started = EventLoop.now()
        let speed = speed
        // Session time runs `speed` times faster than the wall; every event is stamped with it.
        let clock = { start + (EventLoop.now() - started) * speed }
        let stop = { loop.stop() }
        Interruption.watch(on: loop, stop)
        let title = "demo ×" + Formatting.fixed(speed, digits: speed == speed.rounded() ? 0 : 1)
        // The demo calibrates on its own first minutes, whatever the user's personal baseline.
        let header = SessionHeader(
            start: start, source: "demo", deviceName: Self.strapName, deviceAddress: Self.strapAddress, baseline: nil, settings: settings)
        let host = try LiveSessionHost(
            header, record: log != nil, at: log, display: display, title: title, loop: loop, clock: clock, stop: stop)
        let run = host.run
        Self.announce(on: run, at: start)

        var next = 0
        var tookExercise = false
        func play() {
            while next < timeline.steps.count, started + timeline.steps[next].seconds / speed <= EventLoop.now() {
                let step = timeline.steps[next]
                let time = start + step.seconds
                next += 1
                guard Self.perform(step.action, on: run, at: time, tookExercise: &tookExercise) else { continue }
                // On a terminal with keys the dashboard stays until q; otherwise the demo is over.
                if host.dashboard?.acceptsKeys == true { run.finish(at: time, seconds: time - start) } else { loop.stop() }
            }
            if next < timeline.steps.count { loop.schedule(at: started + timeline.steps[next].seconds / speed, play) }
        }
        play()
        host.runUntilStopped {
            let time = min(clock(), start + (timeline.steps.last?.seconds ?? 0))
            return (time, time - start)
        }
    }

    /// What the demo strap tells at the start: who it is, where it is worn, its battery, and the link.
    static func announce(on run: SessionRun, at time: Double) {
        run.report(.sensor(.identity(name: strapName, address: strapAddress)), at: time)
        run.report(.sensor(.bodySensorLocation("chest")), at: time)
        run.report(.sensor(.batteryLevel(87)), at: time)
        run.report(.link(LinkStatus(.connected, "simulated")), at: time)
    }

    /// Plays one step of the timeline into the session at `time`: a notification, a segment's
    /// notice, the exercise the demo takes in a breathing segment — unless one runs already — and
    /// stops again (only its own: `tookExercise`). True at the end of the timeline, which the
    /// caller ends.
    static func perform(_ action: DemoTimeline.Action, on run: SessionRun, at time: Double, tookExercise: inout Bool) -> Bool {
        switch action {
        case .notification(let bytes):
            run.receive(bytes, at: time)
        case .segment(let segment):
            run.report(.notice(describe(segment)), at: time)
        case .startExercise where !run.session.isExercising:
            run.toggleExercise(run.session.judge.coach.pattern.name, at: time)
            tookExercise = true
        case .stopExercise where tookExercise:
            if run.session.isExercising { run.toggleExercise(run.session.judge.coach.pattern.name, at: time) }
            tookExercise = false
        case .startExercise, .stopExercise:
            break
        case .end:
            return true
        }
        return false
    }

    static func describe(_ segment: Segment) -> String {
        let what = switch segment.kind {
        case .rest: "seated rest"
        case .stress: "mental stress"
        case .breathing: "paced breathing at \(Formatting.fixed(segment.breathingRate, digits: 0)) a minute"
        case .activity: "physical activity"
        case .recovery: "recovery"
        case .talking: "talking"
        case .standing: "standing"
        }
        return "demo: \(Formatting.duration(segment.duration)) of \(what) (simulated heart rate \(Formatting.fixed(segment.heartRate, digits: 0)) bpm, RMSSD \(Formatting.fixed(segment.rmssd, digits: 0)) ms)"
    }
}
