import DesktopIdle
import LivePipeline
import Platform
import Settings

/// Reads the desktop session's idle time while `monitor`'s session runs: finds the first source
/// that answers (``DeskIdleReader/find(loop:timeout:found:)``), then asks it every `interval`
/// seconds on the session's event loop and tells the session when presence changes.
/// Where no source answers there is no timer, no line and no message (`hrvmon doctor` says why).
public final class DeskWatch {
    /// Seconds between two readings: a state at most this stale, against a detector that needs
    /// 15 s of a condition before it says anything; six wake-ups a minute otherwise idle.
    static let interval = 10.0

    private let loop: EventLoop
    private let clock: () -> Double
    private var run: SessionRun?
    private var reader: DeskIdleReader?
    private var input = DeskInput()
    private var timer: EventLoop.Timer?
    /// A reading asked for and not yet answered: the next waits for it rather than pile up.
    private var asking = false

    /// Nil when turned off (`desk.input = false`).
    public init?(_ settings: Settings.Desk, for run: SessionRun, loop: EventLoop, clock: @escaping () -> Double) {
        guard settings.input else { return nil }
        self.run = run
        self.loop = loop
        self.clock = clock
        DeskIdleReader.find(loop: loop) { [weak self] reader in
            guard let self, self.run != nil, let reader else { return }
            self.reader = reader
            read()
        }
    }

    private func read() {
        timer = loop.schedule(after: Self.interval) { [weak self] in self?.read() }
        guard !asking, let reader else { return }
        asking = true
        reader.read { [weak self] idle in
            guard let self else { return }
            asking = false
            guard let presence = input.observe(idleSeconds: idle) else { return }
            guard let run, !run.isFinished else { return }
            run.observeDesk(DeskChange(presence, source: reader.source.rawValue), at: clock())
        }
    }

    /// No more readings.
    public func stop() {
        timer?.cancel()
        timer = nil
        run = nil
    }
}
