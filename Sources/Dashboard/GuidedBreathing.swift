import HRV
import Platform
import Presentation

/// `hrvmon breathe`: the pacer alone, on the event loop. On a terminal the bar is redrawn in place
/// 20 times a second, fitted to the terminal's width, and q or Esc ends the exercise early as
/// Ctrl-C does; otherwise one line per phase is printed as it starts. The pacer's sound, if any,
/// follows its cues.
public final class GuidedBreathing {
    public struct Outcome: Equatable {
        public var breaths: Int
        public var seconds: Double
        /// Ended before its time: q, Esc, Ctrl-C or another ending signal.
        public var stoppedEarly: Bool
    }

    /// The keys that end the exercise early, as the dashboard's q leaves it.
    public static func stops(_ key: Key) -> Bool {
        key == .escape || key == .character("q") || key == .character("Q")
    }

    /// What the terminal is told before the bar starts, when keys reach it.
    public static let keyHint = "q or Esc stops early"

    private var pacer: BreathingPacer
    private let duration: Double
    private let clock: MonotonicClock
    private let animated: Bool
    private let bar: BreathingBar
    private let audible: AudiblePacer?
    private let loop = EventLoop()
    private var output = FileStream.standardOutput
    private var now = 0.0
    private var stoppedEarly = false

    /// `animated`: standard output is a terminal (the bar, else lines). Keys are read when
    /// standard input is a terminal too.
    public init(pattern: BreathingPattern, duration: Double, speed: Double, animated: Bool, colors: Bool, audible: AudiblePacer?) {
        pacer = BreathingPacer(pattern: pattern, start: 0)
        self.duration = duration
        clock = MonotonicClock(speed: speed)
        self.animated = animated
        bar = BreathingBar(colors: colors)
        self.audible = audible
    }

    /// Whether q and Esc will work: the bar is drawn and keys reach it.
    public var acceptsKeys: Bool { animated && Terminal.isTerminal(.input) }

    /// Runs the exercise to its end or until stopped; the terminal is as it was when this returns.
    public func run() -> Outcome {
        Interruption.watch(on: loop) { [unowned self] in stop() }
        let saved = acceptsKeys ? Terminal.enterKeyMode() : nil
        let keys = saved.map { _ in
            KeyInput(loop: loop, pressed: { [unowned self] key in if Self.stops(key) { stop() } }, ended: {})
        }
        let signals = saved.map { saved in
            TerminalSignals.watch(on: loop) { signal in
                // Ctrl-Z gives the shell its terminal back as it was; `fg` takes it again.
                guard signal == .suspend else { return }
                Terminal.restore(saved)
                self.write(BreathingBar.showCursor)
                TerminalSignals.suspend()
                _ = Terminal.enterKeyMode()
                self.write(BreathingBar.hideCursor)
            }
        }
        if animated { write(BreathingBar.hideCursor) } else { write(Self.line(pacer.startCue)) }
        audible?.play(pacer.startCue)
        scheduleFrame()
        loop.run()
        keys?.cancel()
        signals?.cancel()
        if signals != nil { TerminalSignals.reset() }
        audible?.stop()
        if animated { write("\r" + BreathingBar.clearLine + BreathingBar.showCursor) }
        if let saved { Terminal.restore(saved) }
        return Outcome(breaths: pacer.position.breaths, seconds: now, stoppedEarly: stoppedEarly)
    }

    private func stop() {
        // Without the bar `now` moves only at phase changes; the time shown is the clock's.
        now = min(clock.elapsed, duration)
        stoppedEarly = true
        loop.stop()
    }

    /// The next frame in 1/20 s or at the phase change if sooner, so its sound starts on time;
    /// without the bar, at the phase change.
    private func scheduleFrame() {
        let remaining = pacer.position.remaining > 0 ? pacer.position.remaining : 0.05
        let next = min(duration, now + (animated ? min(0.05, remaining) : remaining))
        _ = loop.schedule(after: max(0, (next - clock.elapsed) / clock.speed)) { [unowned self] in frame() }
    }

    private func frame() {
        now = min(clock.elapsed, duration)
        let cues = pacer.advance(to: now).filter { $0.time < duration }
        for cue in cues { audible?.play(cue) }
        if animated {
            write(bar.frame(pacer.position, elapsed: now, duration: duration, width: Terminal.size.columns))
        } else {
            for cue in cues { write(Self.line(cue)) }
        }
        if now >= duration { loop.stop() } else { scheduleFrame() }
    }

    private func write(_ text: String) {
        output.write(text)
        output.flush()
    }

    /// A phase as it starts, without the bar: `0:04 hold 7.0 s`.
    static func line(_ cue: BreathingPacer.Cue) -> String {
        "\(Formatting.clock(cue.time)) \(cue.phase.rawValue) \(Formatting.fixed(cue.seconds, digits: 1)) s\n"
    }
}
