/// A beat after artifact correction, placed on the recording's timeline.
public struct Beat: Equatable, Sendable {
    /// The interval that ends at this beat (corrected when `artifact` is set).
    public var interval: RRInterval
    /// Time of this beat in microticks since the start of the first interval.
    public var time: Int64
    /// The correction that produced or changed this beat; nil for a beat taken as measured.
    public var artifact: ArtifactClass?
    /// True when the previous beat is not its true predecessor (recording gap, reconnect), so no
    /// successive difference is formed across it.
    public var followsGap: Bool

    public init(interval: RRInterval, time: Int64, artifact: ArtifactClass? = nil, followsGap: Bool = false) {
        self.interval = interval
        self.time = time
        self.artifact = artifact
        self.followsGap = followsGap
    }

    /// Whether the interval enters metrics at all.
    public var isUsable: Bool { artifact != .implausible }
    public var isCorrected: Bool { artifact != nil }
    public var seconds: Double { Double(time) / Double(RRInterval.microticksPerSecond) }

    /// Whether the successive difference `previous → self` is meaningful.
    @inline(__always)
    func formsDifference(after previous: Beat) -> Bool {
        isUsable && previous.isUsable && !followsGap
    }
}
