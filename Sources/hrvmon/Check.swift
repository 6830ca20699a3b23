import ArgumentParser
import BlueZ
import HRV
import LiveSession
import Platform
import Presentation
import SessionLog
import UserData

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Morning readiness: a few minutes at rest with the strap, judged against your 60-day normal range.",
        discussion: """
            Lie (or sit) still, breathe normally and do not talk. The first \(Int(settleSeconds)) s settle and are not \
            measured; then --minutes of beats go through the same pipeline as monitor (artifact correction \
            included), and their ln RMSSD and heart rate become the day's morning value in the resting \
            history (replacing an earlier check of the same local day, which is said). The verdict compares \
            the 7-day rolling mean of the daily values with their normal range, the mean +/- 1 SD of the 60 \
            days before (given once 14 of them have a value), and says where today's value lies. The beats \
            are kept as a session of their own in the sessions directory, as monitor keeps its sessions \
            (`sessions` lists it, `analyze` replays it), and sent as they are recorded to a study you take \
            part in. Ctrl-C stops without keeping a morning value.
            """)

    /// Seconds after lying down that are not measured.
    static let settleSeconds = 30.0

    @Option(parsing: .unconditional, help: "Minutes measured after settling, 1 to 3.")
    var minutes = 2.0

    @OptionGroup var sensor: SensorOptions

    @Option(help: "text or json (one object with the result and the verdict).")
    var format: OutputFormat = .text

    @Flag(help: "Measure and judge, but keep nothing in the resting history.")
    var dryRun = false

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        try sensor.requireOneDevice("check")
        guard (1...3).contains(minutes) else { throw ValidationError("--minutes must be 1–3") }
        guard format != .csv else { throw ValidationError("--format must be text or json") }
    }

    func run() throws {
        let settings = try config.load()
        let history: BaselineHistory
        do { history = try DataDirectory.loadHistory() } catch { throw badInput(error) }
        let bus = try SystemBus()
        let (query, link) = try sensor.link(on: bus, settings: settings)
        let stop = { link.stop { bus.loop.stop() } }

        let start = WallClock.now()
        let started = EventLoop.now()
        let text = format == .text
        var output = FileStream.standardOutput
        if text {
            output.write("""
                Morning check: \(Formatting.clock(Self.settleSeconds)) to settle, then \(Formatting.duration(minutes * 60)) measured.
                Lie or sit still, breathe normally, do not talk. Ctrl-C stops without keeping anything.

                """)
            output.flush()
        }
        let progress = CheckProgress(
            MorningCheck(settleSeconds: Self.settleSeconds, measureSeconds: minutes * 60),
            output: text ? .standardOutput : .standardError, redraws: text && Terminal.isTerminal(.output))
        let run: SessionRun
        let baseline = DataDirectory.personalBaseline(settings, history: history)
        do { run = try SessionRun(checking: progress, settings: settings, baseline: baseline) } catch { throw badInput(error) }
        // Its session file, as monitor's: the check's beats are a session like any other.
        let header = SessionHeader(
            start: start, source: "check", deviceAddress: query.isBluetoothAddress ? query.uppercased() : nil, baseline: baseline, settings: settings)
        let recorder = try startingSession { try run.recordToFile(at: nil, header: header, loop: bus.loop, stop: stop) }
        let sending = StudySending(recorder, loop: bus.loop)
        var completed = false
        progress.onComplete = {
            completed = true
            stop()
        }
        run.follow(link, now: WallClock.now)
        bus.connection.onDisconnect = {
            run.report(.notice("the system D-Bus went away; stopping"), at: WallClock.now())
            bus.loop.stop()
        }
        bus.onInterrupt = stop
        link.start()
        bus.run()
        run.finish(at: WallClock.now(), seconds: EventLoop.now() - started)
        recorder?.addToIndex()
        sending.finish(toStandardError: !text)

        guard completed else {
            FileStream.printError("hrvmon: the check stopped before its end; no morning value kept (its beats are in its session file)")
            throw ExitCode(1)
        }
        let maximumCorrected = settings.stress.maximumCorrectedShare * 100
        guard let result = progress.check.result, result.correctedPercent <= maximumCorrected else {
            let corrected = progress.check.result.map { "\(Formatting.fixed($0.correctedPercent, digits: 1)) % of the beats needed correction" }
                ?? "too few beats"
            FileStream.printError("hrvmon: this check is not reliable (\(corrected); at most \(Formatting.fixed(maximumCorrected, digits: 0)) % may); no morning value kept. Moisten the strap's electrodes, keep still and try again.")
            throw ExitCode(1)
        }

        let day = WallClock.day(start)
        let measurement = RestingMeasurement(
            day: day, lnRMSSD: result.lnRMSSD, restingHR: result.heartRate, source: "check", kind: .check, time: start,
            utcOffset: WallClock.utcOffset(start))
        let replaced = history.check(on: day)
        var updated = history
        updated.record(measurement)
        let week = updated.readiness(days: 8, today: day)
        if !dryRun {
            do { try DataDirectory.updateHistory { $0.record(measurement) } } catch {
                FileStream.printError("hrvmon: cannot keep the check in the resting history: \(error)")
                throw ExitCode(1)
            }
        }
        let outcome = CheckOutcome(
            measurement: measurement, result: result, today: week[week.count - 1], weekBefore: week[0], replaced: replaced,
            kept: !dryRun)
        output.write(text ? outcome.text : outcome.json)
        output.flush()
    }
}
