import Simulation
import Testing

@testable import HRV

/// The monotonic deque's extremum equals the brute-force maximum or minimum of the values still in
/// the window, after every step; the ring under it behaves as an array used as a queue.
@Suite struct SlidingExtremumTests {
    @Test(arguments: [SlidingExtremum.Kind.maximum, .minimum], [UInt64(1), 2, 3])
    func matchesBruteForce(kind: SlidingExtremum.Kind, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var window = SlidingExtremum(kind)
        var values: [(time: Double, value: Double)] = []
        var time = 0.0
        var mismatches = 0
        for step in 0..<20_000 {
            // Few distinct values (ties are common), times that sometimes repeat, windows that
            // grow to hundreds of values and shrink to none, and now and then a reset.
            time += Double(Int.random(in: 0...3, using: &generator)) / 2
            let value = Double(Int.random(in: 0..<30, using: &generator))
            if step % 5_000 == 4_999 {
                window.removeAll()
                values.removeAll()
            }
            window.append(value, at: time)
            values.append((time, value))
            let cutoff = time - Double(Int.random(in: 0...(step % 1_000 < 500 ? 200 : 3), using: &generator))
            window.removeValues(before: cutoff)
            values.removeAll { $0.time < cutoff }
            let expected = kind == .maximum ? values.map(\.value).max() : values.map(\.value).min()
            if window.value != expected { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func emptyHasNoValue() {
        var window = SlidingExtremum(.maximum)
        #expect(window.value == nil)
        window.append(3, at: 0)
        window.removeValues(before: 1)
        #expect(window.value == nil)
    }

    /// Random appends, prepends and removals at both ends, through several growths and wraps.
    @Test func ringDequeMatchesArray() {
        var generator = SeededGenerator(seed: 7)
        var deque = RingDeque<Int>()
        var array: [Int] = []
        var mismatches = 0
        for step in 0..<50_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<3: deque.append(step); array.append(step)
            case 3..<5: deque.prepend(step); array.insert(step, at: 0)
            case 5..<7 where !array.isEmpty: if deque.removeFirst() != array.removeFirst() { mismatches += 1 }
            case 7..<9 where !array.isEmpty: if deque.removeLast() != array.removeLast() { mismatches += 1 }
            case 9 where !array.isEmpty:
                let offset = Int.random(in: 0..<array.count, using: &generator)
                deque[offset] = -step
                array[offset] = -step
            default: if step % 1_000 == 0 { deque.removeAll(); array.removeAll() }
            }
            if deque.count != array.count || deque.first != array.first || deque.last != array.last { mismatches += 1 }
            if step % 97 == 0, (0..<deque.count).map({ deque[$0] }) != array { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}
