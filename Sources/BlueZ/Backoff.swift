/// Reconnection delays: `initial`, doubling up to `maximum`, back to `initial` after a success.
public struct Backoff: Equatable, Sendable {
    public let initial: Double
    public let maximum: Double
    public private(set) var attempts = 0

    public init(initial: Double, maximum: Double) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The delay the next attempt would wait, without counting it.
    public var delay: Double {
        guard attempts < 62 else { return maximum }
        return min(maximum, initial * Double(1 << attempts))
    }

    /// The delay before the next attempt, counting it.
    public mutating func next() -> Double {
        defer { attempts += 1 }
        return delay
    }

    public mutating func reset() { attempts = 0 }
}
