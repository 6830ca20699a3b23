import HRV
import LivePipeline

/// The last minutes of heart rate, RMSSD and state for the dashboard's charts, in buckets of a
/// few seconds of the session's RR timeline. Memory is bounded: the oldest buckets are dropped.
public struct TrendHistory {
    public struct Bucket {
        public var heartRate = Mean()
        public var rmssd = Mean()
        /// The state at the bucket's last report.
        public var state: StressState?
    }

    public struct Mean {
        private var sum = 0.0
        private var count = 0

        public mutating func add(_ value: Double?) {
            guard let value else { return }
            sum += value
            count += 1
        }

        public var value: Double? { count > 0 ? sum / Double(count) : nil }
    }

    /// Seconds of session time per bucket (one chart column).
    public static let bucketSeconds = 5.0
    /// Buckets kept: more than the widest chart needs.
    public static let capacity = 400

    /// Oldest first; the last one is the bucket of the newest report.
    public private(set) var buckets: [Bucket] = []
    /// Index of the last bucket on the session clock (seconds / bucketSeconds).
    private var lastIndex: Int?

    public mutating func add(_ report: MetricsReport) {
        let index = Int((report.sessionSeconds / Self.bucketSeconds).rounded(.down))
        if let lastIndex, index > lastIndex {
            // Buckets without reports stay empty, so the time axis stays true across gaps.
            buckets += repeatElement(Bucket(), count: min(index - lastIndex, Self.capacity))
        } else if lastIndex == nil {
            buckets.append(Bucket())
        }
        lastIndex = max(lastIndex ?? index, index)
        let metrics = report.rmssdWindow.metrics
        buckets[buckets.count - 1].heartRate.add(metrics?.meanHR)
        buckets[buckets.count - 1].rmssd.add(metrics?.rmssd)
        buckets[buckets.count - 1].state = report.assessment.state
        if buckets.count > Self.capacity { buckets.removeFirst(buckets.count - Self.capacity) }
    }

    /// The newest `count` buckets (fewer when the session is younger).
    public func last(_ count: Int) -> ArraySlice<Bucket> { buckets.suffix(max(0, count)) }
}
