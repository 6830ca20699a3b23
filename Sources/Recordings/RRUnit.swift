import HRV

/// The unit the numbers of an RR file are written in.
public enum RRUnit: String, CaseIterable, Sendable {
    /// Milliseconds: Kubios, Elite HRV and Polar exports.
    case ms
    /// Seconds.
    case s
    /// 1/1024 s, as a Bluetooth strap sends them.
    case ticks

    var microticks: Int64 {
        switch self {
        case .ms: RRInterval.microticksPerMillisecond
        case .s: RRInterval.microticksPerSecond
        case .ticks: RRInterval.microticksPerTick
        }
    }
}
