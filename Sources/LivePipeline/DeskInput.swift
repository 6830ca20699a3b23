/// Whether the wearer is at the desk, read from the desktop session's idle time: keyboard or
/// pointer input within the last minute is evidence of sitting (docs/science.md, "Evidence of
/// sitting").
public enum DeskPresence: String, CaseIterable, Equatable, Sendable {
    /// Input within the last `DeskInput.recent` seconds.
    case atDesk = "at_desk"
    /// No input for longer.
    case away
    /// The source did not answer this time.
    case unknown

    /// What the stress detector takes from it: only input says anything; no input does not mean
    /// moving (the wearer may sit and read).
    public var isSittingEvidence: Bool { self == .atDesk }
}

/// A change of desk presence and the source that told it (`mutter`, `screensaver`, `logind`).
public struct DeskChange: Equatable, Sendable {
    public var presence: DeskPresence
    public var source: String

    public init(_ presence: DeskPresence, source: String) {
        self.presence = presence
        self.source = source
    }
}

/// Turns readings of the desktop's idle time into presence, and says when it changes. Pure: the
/// reader on the event loop hands it each reading.
public struct DeskInput {
    /// Seconds since the last input that still count as at the desk.
    public static let recent = 60.0

    public private(set) var presence = DeskPresence.unknown

    public init() {}

    /// One reading: seconds since the last keyboard or pointer input, nil when the source did
    /// not answer. Returns the new presence when it changed.
    public mutating func observe(idleSeconds: Double?) -> DeskPresence? {
        let now: DeskPresence = idleSeconds.map { $0 < Self.recent ? .atDesk : .away } ?? .unknown
        guard now != presence else { return nil }
        presence = now
        return now
    }
}
