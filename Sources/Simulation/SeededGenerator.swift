/// A small, fast, seedable pseudo-random number generator (xoshiro256**),
/// seeded through SplitMix64 so that any 64-bit seed — including 0 — yields
/// a well-mixed, non-degenerate state.
///
/// The sequence for a given seed is fixed forever (it is part of the
/// simulator's reproducibility contract), identical on every platform, and
/// independent of the Swift standard library's own generators.
///
/// ```swift
/// var rng = SeededGenerator(seed: 42)
/// let x = Double.random(in: 0..<1, using: &rng)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable, Equatable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// Creates a generator whose whole output sequence is determined by `seed`.
    public init(seed: UInt64) {
        var sm = seed
        s0 = SeededGenerator.splitMix64(&sm)
        s1 = SeededGenerator.splitMix64(&sm)
        s2 = SeededGenerator.splitMix64(&sm)
        s3 = SeededGenerator.splitMix64(&sm)
    }

    /// Returns the next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    /// A uniformly distributed double in [0, 1) with 53 bits of precision.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    @inline(__always)
    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
        (x << k) | (x >> (64 &- k))
    }

    private static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
