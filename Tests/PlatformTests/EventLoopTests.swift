import Foundation
import Glibc
import Testing
@testable import Platform

@Suite struct EventLoopTests {
    @Test func timersFireInDeadlineOrderAndCancelledOnesNever() {
        let loop = EventLoop()
        var fired: [Int] = []
        let now = EventLoop.now()
        loop.schedule(at: now + 0.03) { fired.append(3); loop.stop() }
        loop.schedule(at: now + 0.01) { fired.append(1) }
        let cancelled = loop.schedule(at: now + 0.02) { fired.append(99) }
        loop.schedule(at: now + 0.02) { fired.append(2) }
        cancelled.cancel()
        loop.run()
        #expect(fired == [1, 2, 3])
    }

    /// A descriptor that is ready and a timer that is due in the same turn: the descriptor's
    /// handler runs first, so a reply that has arrived is read before its timeout fires.
    @Test func whatHasArrivedIsHandledBeforeADueTimer() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        let loop = EventLoop()
        var order: [String] = []
        loop.watch(ends[0]) { _ in
            _ = read(ends[0], &byte, 1)
            order.append("descriptor")
        }
        loop.schedule(at: EventLoop.now() - 1) {
            order.append("timer")
            loop.stop()
        }
        loop.run()
        #expect(order == ["descriptor", "timer"])
    }

    /// Idle, the loop sleeps in poll without a timeout: one wake-up per event, none in between.
    @Test func sleepsUntilADescriptorIsReady() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let loop = EventLoop()
        var received: [UInt8] = []
        loop.watch(ends[0]) { _ in
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
            received.append(byte)
            if received.count == 3 { loop.stop() }
        }
        let writer = ends[1]
        Thread.detachNewThread {
            for byte: UInt8 in [7, 8, 9] {
                Thread.sleep(forTimeInterval: 0.2)
                var value = byte
                _ = write(writer, &value, 1)
            }
        }
        loop.run()
        #expect(received == [7, 8, 9])
        #expect(loop.wakeUps == 3)
    }
}
