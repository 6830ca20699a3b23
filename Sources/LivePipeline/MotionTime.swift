/// When a second of the strap's accelerometer came, to the millisecond. The session file keeps a
/// second's time as whole milliseconds (`motion_seconds` lines), so the live pipeline places each
/// second by that time too: a replay of the file then places it exactly where the live session did.
public struct MotionTime: Equatable, Sendable {
    /// Unix milliseconds.
    public let milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// `time` (Unix seconds) to the nearest millisecond.
    public init(_ time: Double) {
        milliseconds = Int64((time * 1000).rounded())
    }

    /// Unix seconds.
    public var seconds: Double { Double(milliseconds) / 1000 }
}
