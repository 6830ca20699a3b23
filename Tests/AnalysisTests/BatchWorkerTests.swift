@testable import Analysis
import Platform
import Testing

/// The thread `analyze` hands beats to: every item reaches the state, in order, however the
/// stream falls into batches.
@Suite struct BatchWorkerTests {
    /// Shorter than a batch (worked inline at the end), exactly one, and many batches (the
    /// producer then waits for the worker to free a buffer).
    @Test(arguments: [
        0, 5, BatchRing.batchSize - 1, BatchRing.batchSize, BatchRing.batchSize + 1,
        BatchRing.batchSize * (BatchRing.bufferCount + 3) + 7,
    ])
    func everyItemIsConsumedInOrder(count: Int) {
        let worker = BatchWorker([Int]()) { $0.append($1) }
        for item in 0..<count { worker.add(item) }
        #expect(worker.finish() == Array(0..<count))
    }

    /// Items that own memory are moved through the buffers, neither lost nor duplicated.
    @Test func itemsWithStorageArriveIntact() {
        let worker = BatchWorker([String]()) { $0.append($1) }
        let items = (0..<BatchRing.batchSize * (BatchRing.bufferCount + 3)).map { "beat \($0)" }
        for item in items { worker.add(item) }
        #expect(worker.finish() == items)
    }

    /// A finished worker's thread has ended: items given to it after `finish` stop the program
    /// rather than wait for ever for a thread that will not take them.
    @Test func itemsAfterFinishStopTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let worker = BatchWorker([Int]()) { $0.append($1) }
            for item in 0..<(BatchRing.batchSize * 3) { worker.add(item) }
            _ = worker.finish()
            for item in 0..<(BatchRing.batchSize * 2) { worker.add(item) }
        }
    }

    /// A worker dropped before `finish` (a run cut short by a read error) joins its thread and
    /// releases the items it holds: the objects counted here are all freed.
    @Test(arguments: [3, BatchRing.batchSize * (BatchRing.bufferCount + 3)])
    func aWorkerDroppedEarlyReleasesItsItems(count: Int) {
        final class Tracked: Sendable {
            let live: Counter
            init(_ live: Counter) {
                self.live = live
                live.add(1)
            }
            deinit { live.add(-1) }
        }
        let live = Counter()
        do {
            let worker = BatchWorker<Tracked, Int>(0) { total, _ in total += 1 }
            for _ in 0..<count { worker.add(Tracked(live)) }
        }
        #expect(live.value == 0)
    }
}

/// A count shared between threads.
private final class Counter: @unchecked Sendable {
    private let monitor = Monitor()
    private var count = 0
    var value: Int { monitor.withLock { count } }
    func add(_ delta: Int) { monitor.withLock { count += delta } }
}
