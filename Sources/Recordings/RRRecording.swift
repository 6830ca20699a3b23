import HRV

/// RR intervals read from a recording file, in file order.
public struct RRRecording: Equatable, Sendable {
    public enum Layout: Equatable, Sendable {
        /// One value per line.
        case list
        /// Delimited text with a header; the named column holds the intervals.
        case csv(column: String)
    }

    public var intervals: [RRInterval]
    public var layout: Layout
    public var unit: RRUnit
}
