/// The unit of the RR-Interval field of Heart Rate Measurement (0x2A37).
///
/// The spec counts RR intervals in 1/1024 s rather than milliseconds so a
/// strap can derive them from a binary clock without dividing.
public enum RRTicks {
    /// Ticks in one second.
    public static let perSecond = 1024

    /// The interval in milliseconds; exact, since 1000/1024 is a binary fraction.
    public static func milliseconds(_ ticks: UInt16) -> Double {
        Double(ticks) * 1000 / Double(perSecond)
    }
}
