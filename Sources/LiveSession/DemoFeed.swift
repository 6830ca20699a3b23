import Platform

/// The demo's timeline fed into a running session on the demo clock: each step played when the
/// session time reaches it, one one-shot timer at a time (set again when the clock's pace
/// changes), and `onEnd` told the session time of the timeline's end.
public final class DemoFeed {
    private let timeline: DemoTimeline
    private let run: SessionRun
    private let loop: EventLoop
    private let clock: DemoClock
    private let start: Double
    private let onEnd: (Double) -> Void
    private var next = 0
    private var playback = DemoPlayback()
    private var pending: EventLoop.Timer?

    public init(timeline: DemoTimeline, run: SessionRun, loop: EventLoop, clock: DemoClock, start: Double, onEnd: @escaping (Double) -> Void) {
        self.timeline = timeline
        self.run = run
        self.loop = loop
        self.clock = clock
        self.start = start
        self.onEnd = onEnd
        clock.onPaceChange = { [unowned self] in scheduleNext() }
    }

    /// Plays what is due now and waits for the rest.
    public func play() {
        while next < timeline.steps.count, start + timeline.steps[next].seconds <= clock.time {
            let step = timeline.steps[next]
            let time = start + step.seconds
            next += 1
            if playback.perform(step.action, on: run, at: time) { onEnd(time) }
        }
        scheduleNext()
    }

    /// The user's `b` in the demo (see ``DemoPlayback/toggleByUser(on:at:)``).
    public func toggleByUser() {
        playback.toggleByUser(on: run, at: clock.time)
    }

    /// The session time the timeline ends at, or now if it has.
    public var endTime: Double { min(clock.time, start + (timeline.steps.last?.seconds ?? 0)) }

    private func scheduleNext() {
        pending?.cancel()
        pending = next < timeline.steps.count ? loop.schedule(at: clock.wallTime(of: start + timeline.steps[next].seconds)) { [unowned self] in play() } : nil
    }
}
