import Platform

/// Work on a stream of items done in order on a thread of its own, beside the thread producing
/// them: `analyze` takes the research measures (and, when it writes no series, the stress
/// verdicts) this way, as they cost about as much per beat as the rest and the machine has more
/// than one core. Items go over in batches through a few buffers made once (a lock and a wake-up
/// per batch, none per item; nothing allocated per item); `finish` joins the thread and returns
/// the state. A stream shorter than a batch, or one where no thread can be started, is worked
/// through inline.
final class BatchWorker<Item, State> {
    private let shared: Shared
    private var thread: JoinableThread?
    /// Items written to the batch being filled (buffer `shared.produced % bufferCount`).
    private var filled = 0

    /// - Parameters:
    ///   - state: what `consume` updates with each item, in order.
    init(_ state: State, consume: @escaping (inout State, Item) -> Void) {
        shared = Shared(state, consume: consume)
    }

    deinit {
        // A run cut short (a read error): join the thread, or drop the batch never handed over.
        if thread != nil {
            _ = finish()
        } else {
            (shared.items + shared.produced % bufferCount * batchSize).deinitialize(count: filled)
        }
    }

    func add(_ item: Item) {
        (shared.items + shared.produced % bufferCount * batchSize + filled).initialize(to: item)
        filled += 1
        if filled == batchSize { handOver() }
    }

    /// The state after every item added; the thread is joined.
    func finish() -> State {
        if thread == nil {
            shared.consume(shared.produced % bufferCount, count: filled)
        } else {
            if filled > 0 { handOver() }
            shared.monitor.withLock {
                shared.closed = true
                shared.monitor.signal()
            }
            thread.take()?.join()
        }
        filled = 0
        return shared.state
    }

    /// Gives the filled batch to the worker (started with the first), then waits until the next
    /// buffer is free.
    private func handOver() {
        let shared = shared
        if thread == nil {
            thread = try? JoinableThread { shared.work() }
            if thread == nil {
                // No second thread: work here.
                shared.consume(shared.produced % bufferCount, count: filled)
                filled = 0
                return
            }
        }
        let count = filled
        shared.monitor.withLock {
            shared.counts[shared.produced % bufferCount] = count
            shared.produced += 1
            shared.monitor.signal()
            while shared.produced - shared.consumed >= bufferCount { shared.monitor.wait() }
        }
        filled = 0
    }

    /// The state both threads see; `state` belongs to the worker until it is joined.
    private final class Shared: @unchecked Sendable {
        let monitor = Monitor()
        let items = UnsafeMutablePointer<Item>.allocate(capacity: batchSize * bufferCount)
        var counts = [Int](repeating: 0, count: bufferCount)
        /// Batches handed over and batches worked through, under the lock.
        var produced = 0
        var consumed = 0
        var closed = false
        var state: State
        let apply: (inout State, Item) -> Void

        init(_ state: State, consume: @escaping (inout State, Item) -> Void) {
            self.state = state
            apply = consume
        }

        deinit { items.deallocate() }

        func consume(_ buffer: Int, count: Int) {
            let start = items + buffer * batchSize
            for index in 0..<count { apply(&state, (start + index).move()) }
        }

        /// The worker: each batch handed over, until closed.
        func work() {
            while true {
                let next: (buffer: Int, count: Int)? = monitor.withLock {
                    while consumed == produced && !closed { monitor.wait() }
                    guard consumed < produced else { return nil }
                    let buffer = consumed % bufferCount
                    return (buffer, counts[buffer])
                }
                guard let next else { return }
                consume(next.buffer, count: next.count)
                monitor.withLock {
                    consumed += 1
                    monitor.signal()
                }
            }
        }
    }
}

/// Items per batch, and batches in flight.
private let batchSize = 1024
private let bufferCount = 4
