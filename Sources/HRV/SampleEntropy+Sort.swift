extension SampleEntropy {
    struct SortKey: Equatable, Sendable {
        var value: Double
        var index: Int
    }

    /// Sorts `keys` by value into `sorted` (as long) without allocating (the standard library's
    /// sort takes a scratch buffer), stably: a counting sort into as many buckets as keys, evenly
    /// over the range of values (`buckets` has one more slot), then an insertion sort, which has
    /// little left to do. As monotonic a bucket of a value is, the result is sorted whatever the
    /// spread; values crowded into few buckets only cost more.
    static func bucketSort(
        _ keys: UnsafeMutableBufferPointer<SortKey>, into sorted: UnsafeMutableBufferPointer<SortKey>,
        buckets: UnsafeMutableBufferPointer<Int>
    ) {
        let count = keys.count
        guard count > 1 else {
            for index in 0..<count { sorted[index] = keys[index] }
            return
        }
        var (lowest, highest) = (keys[0].value, keys[0].value)
        for key in keys {
            lowest = min(lowest, key.value)
            highest = max(highest, key.value)
        }
        let spread = Double(count) / (highest - lowest)
        let scale = spread.isFinite ? spread : 0
        let last = count - 1
        func bucket(_ value: Double) -> Int {
            let position = (value - lowest) * scale
            return position < Double(last) ? Int(position) : last
        }
        for key in keys { buckets[bucket(key.value) + 1] &+= 1 }
        for bucket in 1...count { buckets[bucket] &+= buckets[bucket - 1] }
        for key in keys {
            let bucket = bucket(key.value)
            sorted[buckets[bucket]] = key
            buckets[bucket] &+= 1
        }
        for index in 1..<count {
            let key = sorted[index]
            var hole = index
            while hole > 0, key.value < sorted[hole - 1].value {
                sorted[hole] = sorted[hole - 1]
                hole -= 1
            }
            sorted[hole] = key
        }
    }
}
