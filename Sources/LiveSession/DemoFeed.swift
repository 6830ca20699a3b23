import Platform

/// The demo's timeline fed into a running session on the demo clock: each step played when the
/// session time reaches it, one one-shot timer at a time (set again when the clock's pace
/// changes), and `onEnd` told the session time of the timeline's end. Actions `alongside` (the
/// resonance pacer's steps) run in the same order of time — before the timeline's steps of the
/// same moment — however late a fast clock wakes the loop.
public final class DemoFeed {
    private let timeline: DemoTimeline
    private let run: SessionRun
    private let loop: EventLoop
    private let clock: DemoClock
    private let start: Double
    private let onEnd: (Double) -> Void
    private var next = 0
    private let alongside: [(seconds: Double, action: () -> Void)]
    private var nextAlongside = 0
    private var playback = DemoPlayback()
    private var pending: EventLoop.Timer?

    public init(
        timeline: DemoTimeline, run: SessionRun, loop: EventLoop, clock: DemoClock, start: Double,
        alongside: [(seconds: Double, action: () -> Void)] = [], onEnd: @escaping (Double) -> Void
    ) {
        self.timeline = timeline
        self.alongside = alongside.sorted { $0.seconds < $1.seconds }
        self.run = run
        self.loop = loop
        self.clock = clock
        self.start = start
        self.onEnd = onEnd
        clock.onPaceChange = { [unowned self] in scheduleNext() }
    }

    /// Starts playing from the event loop, never before it: a timeline already over by then (a
    /// short --duration at a high --speed on a busy machine) would stop the loop before it ran,
    /// and it would then wait forever.
    public func begin() {
        scheduleNext()
    }

    /// Plays what is due now and waits for the rest.
    private func play() {
        while let seconds = nextSeconds, start + seconds <= clock.time {
            if nextAlongside < alongside.count, alongside[nextAlongside].seconds <= seconds {
                nextAlongside += 1
                alongside[nextAlongside - 1].action()
                continue
            }
            let step = timeline.steps[next]
            let time = start + step.seconds
            next += 1
            if playback.perform(step.action, on: run, at: time) { onEnd(time) }
        }
        scheduleNext()
    }

    /// Seconds of the next thing to play, nil when all is played.
    private var nextSeconds: Double? {
        let candidates = [next < timeline.steps.count ? timeline.steps[next].seconds : nil, nextAlongside < alongside.count ? alongside[nextAlongside].seconds : nil]
        return candidates.compactMap { $0 }.min()
    }

    /// The user's `b` in the demo (see ``DemoPlayback/toggleByUser(on:at:)``).
    public func toggleByUser() {
        playback.toggleByUser(on: run, at: clock.time)
    }

    /// The session time the timeline ends at, or now if it has.
    public var endTime: Double { min(clock.time, start + (timeline.steps.last?.seconds ?? 0)) }

    private func scheduleNext() {
        pending?.cancel()
        pending = nextSeconds.map { loop.schedule(at: clock.wallTime(of: start + $0)) { [unowned self] in play() } }
    }
}
