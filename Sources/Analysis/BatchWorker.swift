import Platform

/// Work on a stream of items done in order on a thread of its own, beside the thread producing
/// them: `analyze` takes the research measures (and, when it writes no series, the stress
/// verdicts) this way, as they cost about as much per beat as the rest and the machine has more
/// than one core. Items go over in batches through a ring of buffers made once (a lock and a wake-up
/// per batch, none per item; nothing allocated per item); `finish` joins the thread and returns
/// the state. A stream shorter than a batch, or one where no thread can be started, is worked
/// through inline.
final class BatchWorker<Item, State> {
    private let shared: Shared
    private var thread: JoinableThread?
    /// Items written to the batch being filled (buffer `shared.produced % BatchRing.bufferCount`).
    private var filled = 0
    /// Once finished, a worker takes nothing more: its thread has ended, so a batch handed over
    /// would never be taken and the producer would wait for ever.
    private var isFinished = false

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
            (shared.items + shared.produced % BatchRing.bufferCount * BatchRing.batchSize).deinitialize(count: filled)
        }
    }

    func add(_ item: Item) {
        (shared.items + shared.produced % BatchRing.bufferCount * BatchRing.batchSize + filled).initialize(to: item)
        filled += 1
        if filled == BatchRing.batchSize { handOver() }
    }

    /// The state after every item added; the thread is joined.
    func finish() -> State {
        precondition(!isFinished, "BatchWorker finished twice")
        defer { isFinished = true }
        if thread == nil {
            shared.consume(shared.produced % BatchRing.bufferCount, count: filled)
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
        precondition(!isFinished, "BatchWorker given items after finish")
        let shared = shared
        if thread == nil {
            thread = try? JoinableThread { shared.work() }
            if thread == nil {
                // No second thread: work here.
                shared.consume(shared.produced % BatchRing.bufferCount, count: filled)
                filled = 0
                return
            }
        }
        let count = filled
        shared.monitor.withLock {
            shared.counts[shared.produced % BatchRing.bufferCount] = count
            shared.produced += 1
            shared.monitor.signal()
            while shared.produced - shared.consumed >= BatchRing.bufferCount { shared.monitor.wait() }
        }
        filled = 0
    }

    /// The state both threads see; `state` belongs to the worker until it is joined.
    private final class Shared: @unchecked Sendable {
        let monitor = Monitor()
        let items = UnsafeMutablePointer<Item>.allocate(capacity: BatchRing.batchSize * BatchRing.bufferCount)
        var counts = [Int](repeating: 0, count: BatchRing.bufferCount)
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
            let start = items + buffer * BatchRing.batchSize
            for index in 0..<count { apply(&state, (start + index).move()) }
        }

        /// The worker: each batch handed over, until closed.
        func work() {
            while true {
                let next: (buffer: Int, count: Int)? = monitor.withLock {
                    while consumed == produced && !closed { monitor.wait() }
                    guard consumed < produced else { return nil }
                    let buffer = consumed % BatchRing.bufferCount
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

/// How items go over: batches of `batchSize` items, at most `bufferCount` of them in flight.
/// Small batches and many of them: the worker can fall a sixth of a day's beats behind while its
/// core is busy elsewhere, so the producer rarely waits on a full ring, and a batch is handed over
/// within a few hundred beats of being started. On a day's file with two cores, 1,024 × 4 took
/// 52 ms and this 46 ms, for 1.6 MB more memory (the verdict items are 144 bytes).
enum BatchRing {
    static let batchSize = 256
    static let bufferCount = 64
}
