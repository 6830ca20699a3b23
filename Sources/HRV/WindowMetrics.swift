/// A rolling window's state after a beat: its sums and how much to trust them. Everything derived
/// (metrics, shares) is computed on demand, so a consumer that reads one window in a hundred pays
/// for one in a hundred.
public struct WindowMetrics: Equatable, Sendable {
    /// Exact sums over the window's usable intervals.
    public var statistics: IntervalStatistics
    /// Of the window's usable intervals, those changed by artifact correction.
    public var correctedBeats: Int
    /// Corrected share above which the window is low quality.
    public var lowQualityLimit: Double
    /// The timeline has run for at least the window's length, so it is not a partial window.
    public var isFilled: Bool

    /// Nil while the window holds no usable interval.
    public var metrics: TimeDomainMetrics? { statistics.metrics }

    /// Share of the window's intervals changed by artifact correction, 0...1.
    public var correctedShare: Double {
        statistics.count > 0 ? Double(correctedBeats) / Double(statistics.count) : 0
    }

    /// The metrics rest too much on corrections.
    public var isLowQuality: Bool { correctedShare > lowQualityLimit }
}
