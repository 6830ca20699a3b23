/// The start of a step of a live resonance assessment, or (with no rate) its end: what the
/// session file keeps so that a replay finds the steps by itself.
public struct ResonanceStepMark: Equatable, Sendable {
    /// 0 for the first step; the number of steps for the end.
    public var index: Int
    /// Breaths per minute of the step; nil at the end.
    public var rate: Double?
    public var stepSeconds: Double
    public var settleSeconds: Double
    public var inhaleShare: Double
    /// Wall-clock time (Unix seconds) the pacer started the step.
    public var time: Double
    /// The same moment on the session's RR timeline (the clock beats are placed on).
    public var sessionSeconds: Double

    public init(
        index: Int, rate: Double?, stepSeconds: Double, settleSeconds: Double, inhaleShare: Double, time: Double,
        sessionSeconds: Double
    ) {
        self.index = index
        self.rate = rate
        self.stepSeconds = stepSeconds
        self.settleSeconds = settleSeconds
        self.inhaleShare = inhaleShare
        self.time = time
        self.sessionSeconds = sessionSeconds
    }

    /// The schedule of the steps these marks started (end marks left out); nil without steps.
    public static func schedule(_ marks: [ResonanceStepMark]) -> ResonanceProtocol? {
        let steps = marks.filter { $0.rate != nil }
        guard let first = steps.first else { return nil }
        return ResonanceProtocol(
            rates: steps.compactMap(\.rate), starts: steps.map(\.sessionSeconds), stepSeconds: first.stepSeconds,
            settleSeconds: first.settleSeconds, inhaleShare: first.inhaleShare)
    }
}
