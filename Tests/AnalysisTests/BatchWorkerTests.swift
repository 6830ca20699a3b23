@testable import Analysis
import Testing

/// The thread `analyze` hands beats to: every item reaches the state, in order, however the
/// stream falls into batches.
@Suite struct BatchWorkerTests {
    /// Shorter than a batch (worked inline at the end), exactly one, and many batches (the
    /// producer then waits for the worker to free a buffer).
    @Test(arguments: [0, 5, 1023, 1024, 1025, 20_000])
    func everyItemIsConsumedInOrder(count: Int) {
        let worker = BatchWorker([Int]()) { $0.append($1) }
        for item in 0..<count { worker.add(item) }
        #expect(worker.finish() == Array(0..<count))
    }

    /// Items that own memory are moved through the buffers, neither lost nor duplicated.
    @Test func itemsWithStorageArriveIntact() {
        let worker = BatchWorker([String]()) { $0.append($1) }
        let items = (0..<5000).map { "beat \($0)" }
        for item in items { worker.add(item) }
        #expect(worker.finish() == items)
    }
}
