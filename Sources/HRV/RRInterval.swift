/// One interval between successive heart beats.
///
/// Straps report RR in ticks of 1/1024 s; recordings are written in milliseconds, often with
/// decimals. To hold both exactly, the value is kept in *microticks*: 1/1,000,000 of a strap tick,
/// i.e. 1/1,024,000,000 s. A strap tick is 1,000,000 microticks and a millisecond 1,024,000, so
/// tick values and millisecond values with up to three decimals convert without rounding, and all
/// sums stay integers.
public struct RRInterval: Hashable, Comparable, Sendable {
    public var microticks: Int64

    public static let microticksPerTick: Int64 = 1_000_000
    public static let microticksPerMillisecond: Int64 = 1_024_000
    public static let microticksPerSecond: Int64 = 1_024_000_000

    public init(microticks: Int64) {
        self.microticks = microticks
    }

    /// An interval as the strap sends it, in 1/1024 s.
    public init(ticks: UInt16) {
        self.microticks = Int64(ticks) * Self.microticksPerTick
    }

    /// Whole milliseconds, exact.
    public init(milliseconds: Int) {
        self.microticks = Int64(milliseconds) * Self.microticksPerMillisecond
    }

    public var milliseconds: Double { Double(microticks) / Double(Self.microticksPerMillisecond) }
    public var seconds: Double { Double(microticks) / Double(Self.microticksPerSecond) }

    public static func < (lhs: RRInterval, rhs: RRInterval) -> Bool { lhs.microticks < rhs.microticks }
}

extension RRInterval {
    /// The value in milliseconds written exactly (a microtick is 1/1,024,000 ms, so the decimal
    /// always terminates): `781.25` for 800 strap ticks. For exports that must read back unchanged.
    public var exactMilliseconds: String {
        let perMs = Self.microticksPerMillisecond
        let sign = microticks < 0 ? "-" : ""
        let magnitude = microticks.magnitude
        var text = sign + String(magnitude / UInt64(perMs))
        var remainder = magnitude % UInt64(perMs)
        if remainder > 0 {
            text += "."
            while remainder > 0 {
                remainder *= 10
                text += String(remainder / UInt64(perMs))
                remainder %= UInt64(perMs)
            }
        }
        return text
    }
}
