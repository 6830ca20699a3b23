/// A rolling window's state after a beat: its sums and how much to trust them. The metrics are
/// derived on demand, so a consumer that reads one window in a hundred pays for one in a hundred.
public struct WindowMetrics: Equatable, Sendable {
    /// Configured length in seconds.
    public var length: Double
    /// Exact sums over the window's usable intervals.
    public var statistics: IntervalStatistics
    /// Share of the window's intervals changed by artifact correction, 0...1.
    public var correctedShare: Double
    /// `correctedShare` is above the configured limit: metrics rest too much on corrections.
    public var isLowQuality: Bool
    /// The timeline has run for at least the window's length, so it is not a partial window.
    public var isFilled: Bool

    /// Nil while the window holds no usable interval.
    public var metrics: TimeDomainMetrics? { statistics.metrics }
}
