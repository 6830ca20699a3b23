import Glibc

/// A single-threaded poll(2) loop: descriptors with handlers, one-shot timers, and hooks that run
/// before every sleep. While nothing is ready and no timer is armed it sleeps in poll with no
/// timeout, so an idle process costs no wake-ups.
public final class EventLoop {
    /// A descriptor the loop polls while the source is enabled.
    public final class Source {
        public let descriptor: Int32
        public var events: Int16
        public var isEnabled: Bool
        fileprivate let handler: (_ returnedEvents: Int16) -> Void
        fileprivate var isCancelled = false

        fileprivate init(descriptor: Int32, events: Int16, isEnabled: Bool, handler: @escaping (Int16) -> Void) {
            self.descriptor = descriptor
            self.events = events
            self.isEnabled = isEnabled
            self.handler = handler
        }

        /// Stops polling the descriptor; closing it stays with the owner.
        public func cancel() { isCancelled = true }
    }

    /// A one-shot action at a monotonic deadline.
    public final class Timer {
        public fileprivate(set) var deadline: Double
        fileprivate let action: () -> Void
        fileprivate var isCancelled = false

        fileprivate init(deadline: Double, action: @escaping () -> Void) {
            self.deadline = deadline
            self.action = action
        }

        public func cancel() { isCancelled = true }
    }

    /// poll(2)'s events, for modules that watch a library's socket without the C library.
    public static let readable = Int16(POLLIN)
    public static let writable = Int16(POLLOUT)

    private var sources: [Source] = []
    private var timers: [Timer] = []
    private var beforeSleep: [() -> Void] = []
    private var isStopped = false

    /// How many times poll returned: the cost of being awake, for benchmarks and tests.
    public private(set) var wakeUps = 0

    public init() {}

    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @discardableResult
    public func watch(
        _ descriptor: Int32, events: Int16 = Int16(POLLIN), isEnabled: Bool = true,
        handler: @escaping (_ returnedEvents: Int16) -> Void
    ) -> Source {
        let source = Source(descriptor: descriptor, events: events, isEnabled: isEnabled, handler: handler)
        sources.append(source)
        return source
    }

    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> Timer {
        let timer = Timer(deadline: deadline, action: action)
        timers.append(timer)
        return timer
    }

    @discardableResult
    public func schedule(after seconds: Double, _ action: @escaping () -> Void) -> Timer {
        schedule(at: Self.now() + seconds, action)
    }

    /// Runs `hook` before every sleep, e.g. to dispatch messages a library has already read.
    public func runBeforeSleep(_ hook: @escaping () -> Void) {
        beforeSleep.append(hook)
    }

    /// Makes `run` return after the current iteration.
    public func stop() { isStopped = true }

    /// Polls and dispatches until `stop()` is called.
    public func run() {
        isStopped = false
        var descriptors: [pollfd] = []
        var polled: [Source] = []
        while !isStopped {
            for hook in beforeSleep { hook() }
            if isStopped { break }
            sources.removeAll { $0.isCancelled }
            timers.removeAll { $0.isCancelled }
            polled.removeAll(keepingCapacity: true)
            descriptors.removeAll(keepingCapacity: true)
            for source in sources where source.isEnabled {
                polled.append(source)
                descriptors.append(pollfd(fd: source.descriptor, events: source.events, revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds())
            wakeUps += 1
            if ready < 0 && errno != EINTR { fatalError("poll failed: \(String(cString: strerror(errno)))") }
            // What has arrived is handled before the timers that were due by then: a reply read in
            // this turn answers its request before the request's timeout can say it never came (on
            // a starved machine both are ready at once).
            if ready > 0 {
                for (source, descriptor) in zip(polled, descriptors) where descriptor.revents != 0 && !source.isCancelled {
                    source.handler(descriptor.revents)
                }
            }
            fireDueTimers()
        }
    }

    /// Runs the loop until `start`'s completion is called, and returns what it was given: for a
    /// command that asks one thing at a time. The completion must come (a D-Bus call's reply does,
    /// or its timeout).
    public func wait<Value>(for start: (_ completion: @escaping (Value) -> Void) -> Void) -> Value {
        var value: Value?
        start { given in
            value = given
            self.stop()
        }
        while value == nil { run() }
        return value!
    }

    private func timeoutMilliseconds() -> Int32 {
        guard let next = timers.lazy.filter({ !$0.isCancelled }).map(\.deadline).min() else { return -1 }
        let remaining = (next - Self.now()) * 1000
        return remaining <= 0 ? 0 : Int32(min(remaining.rounded(.up), Double(Int32.max)))
    }

    private func fireDueTimers() {
        let now = Self.now()
        let due = timers.filter { !$0.isCancelled && $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        guard !due.isEmpty else { return }
        for timer in due where !timer.isCancelled {
            timer.isCancelled = true
            timer.action()
        }
    }
}
