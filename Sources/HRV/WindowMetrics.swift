/// A rolling window's state after a beat: its metrics and how much to trust them.
public struct WindowMetrics: Equatable, Sendable {
    /// Configured length in seconds.
    public var length: Double
    /// Nil while the window holds no usable interval.
    public var metrics: TimeDomainMetrics?
    /// Share of the window's intervals changed by artifact correction, 0...1.
    public var correctedShare: Double
    /// `correctedShare` is above the configured limit: metrics rest too much on corrections.
    public var isLowQuality: Bool
    /// The timeline has run for at least the window's length, so it is not a partial window.
    public var isFilled: Bool
}
