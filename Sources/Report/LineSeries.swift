/// A measured series made ready for a chart line: averaged into buckets about as wide as a
/// couple of pixels (a day of once-a-second values would otherwise be 86,400 points), broken
/// where a value is missing or the recording was interrupted.
public enum LineSeries {
    /// `points` in time order; `breaks`: x positions the line must not cross (link losses);
    /// `bucket`: x units one bucket spans.
    public static func segments(_ points: [(x: Double, y: Double?)], breaks: [Double], bucket: Double) -> [[(x: Double, y: Double)]] {
        var segments: [[(x: Double, y: Double)]] = []
        var current: [(x: Double, y: Double)] = []
        var sum = (x: 0.0, y: 0.0, count: 0)
        var bucketIndex: Double?
        var nextBreak = breaks.sorted().makeIterator()
        var upcoming = nextBreak.next()

        func closeBucket() {
            if sum.count > 0 { current.append((sum.x / Double(sum.count), sum.y / Double(sum.count))) }
            sum = (0, 0, 0)
        }
        func closeSegment() {
            closeBucket()
            if !current.isEmpty { segments.append(current) }
            current = []
            bucketIndex = nil
        }

        for point in points {
            while let position = upcoming, point.x > position {
                closeSegment()
                upcoming = nextBreak.next()
            }
            guard let value = point.y, value.isFinite else {
                closeSegment()
                continue
            }
            let index = bucket > 0 ? (point.x / bucket).rounded(.down) : point.x
            if index != bucketIndex {
                closeBucket()
                bucketIndex = index
            }
            sum = (sum.x + point.x, sum.y + value, sum.count + 1)
        }
        closeSegment()
        return segments
    }
}
