/// The part of an ``HRVUpdate`` that the stress detector and the exercise effects read: the beat
/// and its RMSSD window. `analyze` hands this, not the whole update, to its verdict thread: 144
/// bytes written and copied per beat instead of 256.
public struct VerdictInput: Equatable, Sendable {
    public var beat: Beat
    public var rmssdWindow: WindowMetrics

    public init(_ update: HRVUpdate) {
        beat = update.beat
        rmssdWindow = update.rmssdWindow
    }
}
