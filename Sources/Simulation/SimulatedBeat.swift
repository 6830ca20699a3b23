/// What one simulated RR interval is.
public enum BeatLabel: String, Sendable, CaseIterable {
    /// A normal sinus beat (normal-to-normal interval).
    case normal
    /// A premature (ectopic) beat: the RR ending at it is shortened 25–40 %.
    case ectopic
    /// The compensatory pause after an ectopic beat; ectopic + compensatory
    /// RR ≈ two normal RRs.
    case compensatory
    /// A missed R wave: this RR is two normal RRs merged.
    case missed
    /// A spurious extra detection splitting one normal RR in two; both
    /// resulting intervals carry this label.
    case extra

    /// True for every label except ``normal``.
    public var isArtifact: Bool { self != .normal }
}

/// One RR interval as a strap reports it, with its ground truth.
public struct SimulatedBeat: Sendable, Equatable {
    /// The RR interval ending at this beat, in 1/1024 s (as the strap sends it).
    public var rrTicks: UInt16
    /// Beat time in ticks since the start: the cumulative sum of `rrTicks`.
    public var time: Int64
    /// Index of the scenario segment containing `time` (segments are
    /// half-open [start, end); the last one includes its end).
    public var segmentIndex: Int
    public var label: BeatLabel

    public init(rrTicks: UInt16, time: Int64, segmentIndex: Int, label: BeatLabel) {
        self.rrTicks = rrTicks
        self.time = time
        self.segmentIndex = segmentIndex
        self.label = label
    }

    /// RR interval in milliseconds.
    public var rrMilliseconds: Double { Double(rrTicks) * 1000 / 1024 }
    /// Beat time in seconds since the start.
    public var seconds: Double { Double(time) / 1024 }
}
