import HRV
import LivePipeline
import Platform
import Presentation

/// The live dashboard on the terminal: a session output that keeps a `DashboardState` (or, for
/// several sensors, a `SensorsDashboardState`) and draws it whenever something changed, once per
/// turn of the event loop. It redraws on events, on keys, on resize, and 20 times a second while
/// the pacer runs; with nothing happening it sets no timer, so the process sleeps. `close` gives
/// the terminal back on every way out.
public final class Dashboard {
    public static let frameInterval = 0.05

    private var state: any DashboardScreen
    private let screen = TerminalScreen()
    private let loop: EventLoop
    /// The session's clock (the demo's runs faster than the wall).
    private let clock: () -> Double
    private let colors: Bool
    private let bell: Bool
    private var keys: KeyInput?
    private var signalSource: EventLoop.Source?
    private var frameTimer: EventLoop.Timer?
    private var needsDrawing = true
    private var isClosed = false

    /// The pacer's cues as sound, when asked for and a sound service runs.
    public var audible: AudiblePacer?

    /// Keys reach the dashboard (stdin is a terminal), so it can wait for `q`.
    public var acceptsKeys: Bool { state.acceptsKeys }

    /// What the keys ask of the session: breathe, note, quit.
    public var perform: (DashboardCommand) -> Void = { _ in }

    public convenience init(
        configuration: DashboardState.Configuration, loop: EventLoop, clock: @escaping () -> Double, colors: Bool, bell: Bool
    ) {
        self.init(screen: DashboardState(configuration: configuration), loop: loop, clock: clock, colors: colors, bell: bell)
    }

    public init(screen: any DashboardScreen, loop: EventLoop, clock: @escaping () -> Double, colors: Bool, bell: Bool) {
        state = screen
        self.loop = loop
        self.clock = clock
        self.colors = colors
        self.bell = bell
        if screen.acceptsKeys {
            // The terminal went away: nobody is left to press q.
            keys = KeyInput(loop: loop, pressed: { [weak self] key in self?.pressed(key) }, ended: { [weak self] in self?.perform(.quit) })
        }
        signalSource = TerminalSignals.watch(on: loop) { [weak self] signal in self?.received(signal) }
        loop.runBeforeSleep { [weak self] in self?.drawIfNeeded() }
    }

    deinit { close() }

    /// An event of the session of `sensor` (0 for a single session). A pacer started (an exercise,
    /// a resonance step) is heard from its first phase and one that ended falls silent; with
    /// several sensors the sound follows the first's pacer (`b` runs one in each, side by side).
    public func handle(_ event: SessionEvent, at time: Double, sensor: Int) {
        let pacing = state.exercise?.start
        state.apply(event, at: max(time, clock()), sensor: sensor)
        if bell, case .live(.suggestion) = event { screen.bell() }
        if let exercise = state.exercise, exercise.start != pacing {
            audible?.play(exercise.pacer.startCue)
        } else if pacing != nil, state.exercise == nil {
            audible?.stop()
        }
        if state.exercise != nil { scheduleFrame() }
        needsDrawing = true
    }

    public func finish(_ summary: SessionSummary, sensor: Int) {
        state.finish(summary, sensor: sensor)
        needsDrawing = true
    }

    /// Gives the terminal back and prints the summary on it, as line output would.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        keys?.cancel()
        signalSource?.cancel()
        frameTimer?.cancel()
        audible?.stop()
        screen.restore()
        TerminalSignals.reset()
        var output = FileStream.standardOutput
        for line in state.closingLines(width: screen.size.columns) { output.write(line + "\n") }
        output.flush()
    }

    /// The first drawing takes over the terminal: until the loop runs, a failing start-up (an
    /// unwritable session file) still prints its message on the normal screen.
    private func drawIfNeeded() {
        guard needsDrawing, !isClosed else { return }
        needsDrawing = false
        if !screen.isActive { screen.enter() }
        screen.draw(state.render(size: screen.size, colors: colors))
    }

    /// The next frame in 1/20 s, or at the end of the phase if that comes sooner, so a phase
    /// change (and its sound) is never up to a frame late.
    private func scheduleFrame() {
        guard frameTimer == nil else { return }
        let remaining = state.exercise?.pacer.position.remaining ?? Self.frameInterval
        frameTimer = loop.schedule(after: min(Self.frameInterval, max(0.001, remaining))) { [weak self] in self?.frame() }
    }

    /// One frame of the pacer; the exercise stops by itself after its configured length.
    private func frame() {
        frameTimer = nil
        guard state.exercise != nil else { return }
        let now = clock()
        for cue in state.advancePacer(to: now) { audible?.play(cue) }
        needsDrawing = true
        if state.exerciseIsDue(at: now) { perform(.toggleExercise) }
        if state.exercise != nil { scheduleFrame() }
    }

    private func pressed(_ key: Key) {
        let command = state.press(key)
        needsDrawing = true
        switch command {
        case .redrawAll: screen.invalidate()
        case .some(let command): perform(command)
        case nil: break
        }
    }

    private func received(_ signal: TerminalSignal) {
        switch signal {
        case .suspend:
            screen.restore()
            TerminalSignals.suspend()
            screen.enter()
        case .resumed, .resized:
            screen.invalidate()
        }
        needsDrawing = true
    }
}
