import Platform

/// Several sensors' sessions on one event loop (`monitor --device A --device B`): each keeps its
/// own pipeline, file and outputs; only `hrvmon note` is shared, as there is one inbox per user,
/// and a note goes into every session.
public final class SessionGroup {
    public let hosts: [LiveSessionHost]
    private let loop: EventLoop
    private var notes: NoteInbox?

    /// The hosts must have been made with `takesNotes: false`.
    public init(_ hosts: [LiveSessionHost], loop: EventLoop, clock: @escaping () -> Double) {
        self.hosts = hosts
        self.loop = loop
        do {
            notes = try NoteInbox(loop: loop) { text in
                let time = clock()
                for host in hosts { host.run.report(.note(text), at: time) }
            }
        } catch {
            for host in hosts { host.run.report(.notice("`hrvmon note` cannot reach this session: \(error)"), at: clock()) }
        }
    }

    /// Runs the loop until something stops it; then the notes still waiting go in, and every
    /// session ends at `end`.
    public func runUntilStopped(finishing end: () -> (time: Double, seconds: Double)) {
        loop.run()
        notes?.receive()
        notes = nil
        for host in hosts { host.finish(end) }
    }
}
