import LivePipeline

/// What a session says on its LSL Markers stream: one string per moment worth marking in a
/// recording beside other streams (docs/research.md, "Lab Streaming Layer"). Pure: the events in, the
/// markers out, each at its event's time.
public struct SessionMarkers {
    public static let stressOn = "stress_on"
    public static let stressOff = "stress_off"
    public static let breathingStart = "breathing_start"
    public static let breathingStop = "breathing_stop"
    public static let notePrefix = "note: "
    public static let linkLost = "link_lost"
    public static let linkRestored = "link_restored"

    /// The link was connected and has not come back since it left that state.
    private var linkIsLost = false
    private var linkWasConnected = false

    public init() {}

    public mutating func markers(for event: SessionEvent) -> [String] {
        switch event {
        case .live(.metrics(let report)) where report.stressOnset != nil:
            return [Self.stressOn]
        case .live(.episode(let episode)) where episode.kind == .stress:
            return [Self.stressOff]
        case .live(.exercise(let mark)):
            return [mark.kind == .started ? Self.breathingStart : Self.breathingStop]
        case .note(let text):
            return [Self.notePrefix + text]
        case .link(let status):
            return link(status.state)
        default:
            return []
        }
    }

    /// Lost when a connected link leaves that state (dropped, stalled, bluetoothd or the adapter
    /// gone) other than by stopping; restored when it is connected again.
    private mutating func link(_ state: LinkStatus.State) -> [String] {
        if state == .connected {
            defer { (linkIsLost, linkWasConnected) = (false, true) }
            return linkIsLost ? [Self.linkRestored] : []
        }
        guard linkWasConnected, !linkIsLost, state != .stopped else { return [] }
        linkIsLost = true
        return [Self.linkLost]
    }
}
