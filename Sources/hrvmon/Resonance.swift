import ArgumentParser
import HRV
import LiveSession
import Platform
import Presentation
import SessionLog
import Settings
import Simulation
import UserData

struct Resonance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resonance",
        abstract: "Find your resonance breathing rate: a stepped pacer with the strap, each rate scored, the best one kept for `breathe`.",
        discussion: """
            After a lead-in of ordinary breathing, the pacer takes you through each rate (6.5, 6, 5.5, 5, 4.5 \
            a minute, 2 minutes each, unless told otherwise), inhale first at each step's start, inhale:exhale \
            4:6. Each step is scored on its heart-rate swing, LF power, phase synchrony with the breath and \
            smoothness, leaving out its first --settle-seconds. The recommended rate is stored in the data \
            directory (resonance.json) and becomes the rate of `breathe` and of the exercises sessions \
            suggest; no clear winner is said as such and stores nothing. The session file keeps the steps, \
            so `hrvmon analyze SESSION` scores them again. --demo runs it on a simulated strap whose \
            subject resonates at --subject-resonance (nothing is stored).
            """)

    @OptionGroup var steps: ResonanceSteps

    @Option(name: .customLong("lead-in"), parsing: .unconditional, help: "Seconds of ordinary breathing before the first step (10 to 600; default 60).")
    var leadIn: Double = 60

    @OptionGroup var sensor: SensorOptions

    @Flag(help: "Use a simulated strap instead of a sensor.")
    var demo = false

    @Option(name: .customLong("subject-resonance"), parsing: .unconditional, help: "With --demo: the simulated subject's resonance, breaths a minute (3 to 12) or flat.")
    var subjectResonance = "5.5"

    @Option(parsing: .unconditional, help: "With --demo: random seed of the simulation.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "With --demo: run this many times faster than real time.")
    var speed = 1.0

    @OptionGroup var display: DisplayOptions

    @OptionGroup var sessionFile: SessionFileOptions

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        try sensor.requireOneDevice("resonance")
        try steps.check()
        guard leadIn >= 10, leadIn <= 600 else { throw ValidationError("--lead-in must be 10–600 seconds, not \(leadIn.description)") }
        guard speed > 0, speed <= 1000 else { throw ValidationError("--speed must be above 0 and at most 1000") }
        if !demo, speed != 1 || seed != 1 || subjectResonance != "5.5" {
            throw ValidationError("--speed, --seed and --subject-resonance are for --demo")
        }
        if demo, sessionFile.noLog { throw ValidationError("--demo keeps no session file unless --log asks for one; --no-log is not needed") }
        _ = try subject()
    }

    /// The demo subject's resonance.
    func subject() throws -> BaroreflexResonance {
        do {
            return try Scenario(parsing: "rest:1m,resonance=\(subjectResonance)").resonance ?? BaroreflexResonance(rate: nil)
        } catch {
            throw ValidationError("--subject-resonance must be breaths a minute from 3 to 12 (like 5.5) or flat, not '\(subjectResonance)'")
        }
    }

    func run() throws {
        let settings = try config.load()
        let schedule = steps.schedule(start: 0) ?? ResonanceProtocol()
        // The dashboard's pacer panel counts each step as its exercise.
        var sessionSettings = settings
        sessionSettings.breathing.minutes = schedule.stepSeconds / 60
        let end = leadIn + schedule.end + ResonanceRun.tailSeconds
        let (host, assessment) = demo ? try runDemo(sessionSettings, schedule, end: end) : try runLive(sessionSettings, schedule, end: end)
        report(assessment, host: host)
    }

    private func steps(on run: SessionRun, _ schedule: ResonanceProtocol) -> ResonanceRun {
        ResonanceRun(run: run, rates: schedule.rates, stepSeconds: schedule.stepSeconds, settleSeconds: schedule.settleSeconds)
    }

    /// The dashboard's `b` has no exercise to start: the assessment paces.
    private func holdExerciseKey(_ host: LiveSessionHost) {
        guard let dashboard = host.dashboard else { return }
        let perform = dashboard.perform
        dashboard.perform = { command in
            if case .toggleExercise = command { return }
            perform(command)
        }
    }

    private func runLive(_ settings: Settings, _ schedule: ResonanceProtocol, end: Double) throws -> (LiveSessionHost, ResonanceRun) {
        let baseline = try badInputOnFailure { try DataDirectory.personalBaseline(settings) }
        var assessment: ResonanceRun?
        var sending: StudySending?
        let host = try sensor.runSession(
            settings: settings, baseline: baseline, display: display.display, record: !sessionFile.noLog, log: sessionFile.log,
            title: "resonance", duration: nil
        ) { host, loop, stop in
            sending = StudySending(host.recorder, loop: loop)
            holdExerciseKey(host)
            let run = steps(on: host.run, schedule)
            let onLoop = { (time: Double) in EventLoop.now() + (time - WallClock.now()) }
            // The lead-in starts with the strap's first beat, however long connecting takes.
            run.onFirstBeat = { first in
                run.begin(at: first + leadIn) { time, action in loop.schedule(at: onLoop(time), action) }
                loop.schedule(at: onLoop(first + end), stop)
            }
            assessment = run
        }
        sending?.finish(toStandardError: display.display == .lines(.jsonl))
        return (host, assessment!)
    }

    private func runDemo(_ settings: Settings, _ schedule: ResonanceProtocol, end: Double) throws -> (LiveSessionHost, ResonanceRun) {
        let scenario = Scenario(
            segments: [Segment(kind: .rest, duration: leadIn)]
                + schedule.rates.map { Segment(kind: .breathing, duration: schedule.stepSeconds, breathingRate: $0) },
            resonance: try subject())
        let loop = EventLoop()
        let start = WallClock.now()
        let clock = DemoClock(start: start, speed: speed, now: EventLoop.now)
        let stop = { loop.stop() }
        Interruption.watch(on: loop, stop)
        let header = SessionHeader(
            start: start, source: "demo", deviceName: DemoPlayback.strapName, deviceAddress: DemoPlayback.strapAddress, baseline: nil,
            settings: settings)
        let host = try startingSession {
            try LiveSessionHost(
                header, record: sessionFile.log != nil, at: sessionFile.log, display: display.display, title: "resonance demo",
                loop: loop, clock: { clock.time }, stop: stop)
        }
        holdExerciseKey(host)
        DemoPlayback.announce(on: host.run, at: start)
        let run = steps(on: host.run, schedule)
        // The steps play in order with the strap's notifications, however fast the clock.
        var timed: [(seconds: Double, action: () -> Void)] = [(end, stop)]
        run.begin(at: start + leadIn) { time, action in timed.append((time - start, action)) }
        let feed = DemoFeed(
            timeline: DemoTimeline(scenario: scenario, seed: seed, takesExercises: false), run: host.run, loop: loop, clock: clock,
            start: start, alongside: timed) { _ in }
        feed.begin()
        host.runUntilStopped {
            let time = min(clock.time, start + end)
            return (time, time - start)
        }
        host.recorder?.addToIndex()
        return (host, run)
    }

    /// The result on standard output (a table, or one JSON line), and kept when it recommends a
    /// rate and came from a strap.
    private func report(_ assessment: ResonanceRun, host: LiveSessionHost) {
        var output = FileStream.standardOutput
        defer { output.flush() }
        guard let result = assessment.result, let schedule = assessment.schedule else {
            output.write("resonance: stopped before the first step; nothing assessed\n")
            return
        }
        let stored = demo ? nil : StoredResonance(result, date: DataDirectory.today, session: host.recorder.map { SessionStore.id(of: $0.path) })
        if display.format == .jsonl {
            var object = JSONObject()
            object.add("type", "resonance")
            object.addRaw("result", result.json(schedule: schedule).serialized)
            object.add("stored", stored != nil)
            output.write(object.serialized + "\n")
        } else {
            output.write("Resonance assessment: \(result.verdict)\n  \(ResonanceResult.protocolLine(schedule))\n")
            output.write(result.table(schedule: schedule).split(separator: "\n").map { "  \($0)" }.joined(separator: "\n") + "\n")
        }
        if let stored {
            do {
                try DataDirectory.save(stored)
                if display.format != .jsonl {
                    output.write("Kept in \(DataDirectory.resonanceFile): `hrvmon breathe` now paces \(Formatting.fixed(stored.bestBPM, digits: 1)) a minute.\n")
                }
            } catch {
                FileStream.printError("hrvmon: cannot keep the resonance assessment: \(error)")
            }
        } else if demo, display.format != .jsonl {
            output.write("(demo: nothing is kept)\n")
        }
    }
}
