import HRV
import Platform

/// The research measures (``RecordingVariability``) taken on a second thread, beside the pipeline:
/// they cost about as much per beat as everything else `analyze` does, and the machine has more
/// than one core. Beats go over in order, in batches through a few buffers made once (a lock and a
/// wake-up per batch, none per beat; nothing allocated per beat); `finish` joins the thread.
/// A recording shorter than a batch, or one where no thread can be started, is measured inline.
final class VariabilityThread {
    static let batchSize = 1024
    static let bufferCount = 4

    private let shared = Shared()
    private var thread: JoinableThread?
    /// Beats written to the batch being filled (buffer `shared.produced % bufferCount`).
    private var filled = 0

    /// The state both threads see; `measures` belongs to the worker until it is joined.
    private final class Shared: @unchecked Sendable {
        let monitor = Monitor()
        let beats = UnsafeMutablePointer<Beat>.allocate(capacity: batchSize * bufferCount)
        var counts = [Int](repeating: 0, count: bufferCount)
        /// Batches handed over and batches measured, under the lock.
        var produced = 0
        var consumed = 0
        var closed = false
        var measures = RecordingVariability()

        deinit { beats.deallocate() }

        func measure(_ buffer: Int, count: Int) {
            let start = beats + buffer * batchSize
            for index in 0..<count { measures.add(start[index]) }
        }

        /// The worker: measures each batch handed over until closed.
        func work() {
            while true {
                let next: (buffer: Int, count: Int)? = monitor.withLock {
                    while consumed == produced && !closed { monitor.wait() }
                    guard consumed < produced else { return nil }
                    let buffer = consumed % bufferCount
                    return (buffer, counts[buffer])
                }
                guard let next else { return }
                measure(next.buffer, count: next.count)
                monitor.withLock {
                    consumed += 1
                    monitor.signal()
                }
            }
        }
    }

    deinit {
        if thread != nil { _ = finish() }
    }

    func add(_ beat: Beat) {
        let buffer = shared.produced % Self.bufferCount
        (shared.beats + buffer * Self.batchSize + filled).initialize(to: beat)
        filled += 1
        if filled == Self.batchSize { handOver() }
    }

    /// The measures of every beat added; the thread is joined.
    func finish() -> VariabilityMetrics {
        if thread == nil {
            shared.measure(shared.produced % Self.bufferCount, count: filled)
        } else {
            if filled > 0 { handOver() }
            shared.monitor.withLock {
                shared.closed = true
                shared.monitor.signal()
            }
            thread.take()?.join()
        }
        filled = 0
        return shared.measures.finish()
    }

    /// Gives the filled batch to the worker (started with the first), then waits until the next
    /// buffer is free.
    private func handOver() {
        if thread == nil {
            let shared = shared
            thread = try? JoinableThread { shared.work() }
            if thread == nil {
                // No second thread: measure here.
                shared.measure(shared.produced % Self.bufferCount, count: filled)
                filled = 0
                return
            }
        }
        let shared = shared
        let count = filled
        shared.monitor.withLock {
            shared.counts[shared.produced % Self.bufferCount] = count
            shared.produced += 1
            shared.monitor.signal()
            while shared.produced - shared.consumed >= Self.bufferCount { shared.monitor.wait() }
        }
        filled = 0
    }
}
