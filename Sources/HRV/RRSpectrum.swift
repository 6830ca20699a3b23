import RealModule

/// The power spectrum of a stretch of NN intervals, as the frequency-domain HRV tools compute it
/// (Task Force 1996; Kubios and NeuroKit2 defaults): the tachogram — each interval placed at the
/// time of the beat that ends it — resampled evenly by linear interpolation (4 Hz unless told),
/// its mean and linear trend removed, a Hann window (periodic, as scipy's `get_window("hann")`),
/// and the periodogram (ms²/Hz) at the multiples of `resolution` in the band. Computed directly
/// at those frequencies, so a short window can be read finer than its length (zero padding).
/// This is the plain definition; ``BreathingSpectrum`` keeps the same numbers up to date beat by
/// beat. Pure.
public struct RRSpectrum: Equatable, Sendable {
    public private(set) var frequencies: [Double]
    /// Power spectral density at each frequency, ms²/Hz.
    public private(set) var density: [Double]

    public static let sampleRate = 4.0

    /// Nil with fewer than 8 samples of the resampled series (about 2 s) or no beats.
    /// - Parameters:
    ///   - times: beat times, seconds, increasing.
    ///   - intervals: the interval ending at each beat, milliseconds.
    public init?(
        times: [Double], intervals: [Double], band: ClosedRange<Double>, sampleRate: Double = Self.sampleRate,
        resolution: Double = 1.0 / 128
    ) {
        guard let samples = Self.resample(times: times, intervals: intervals, sampleRate: sampleRate) else { return nil }
        self.init(samples: samples, sampleRate: sampleRate, band: band, resolution: resolution)
    }

    /// The spectrum of evenly spaced samples (ms); nil with fewer than 8.
    public init?(samples: [Double], sampleRate: Double, band: ClosedRange<Double>, resolution: Double) {
        guard samples.count >= 8 else { return nil }
        var samples = samples
        Self.removeLinearTrend(&samples)
        var windowPower = 0.0
        for index in samples.indices {
            let w = Self.hann(index, length: samples.count)
            samples[index] *= w
            windowPower += w * w
        }
        // Scaled by the window's power so that a sinusoid's power is the integral of its peak
        // (one-sided, as scipy's periodogram with scaling="density").
        let scale = 2 / (sampleRate * windowPower)
        let bins = Int((band.lowerBound / resolution).rounded(.up))...Int((band.upperBound / resolution + 1e-9).rounded(.down))
        frequencies = bins.map { Double($0) * resolution }
        density = frequencies.map { f in
            // |Σ x[n] e^{-iωn}|² by the Goertzel recurrence: one multiplication per sample.
            let coefficient = 2 * Double.cos(2 * Double.pi * f / sampleRate)
            var (previous, beforePrevious) = (0.0, 0.0)
            for value in samples {
                (previous, beforePrevious) = (value + coefficient * previous - beforePrevious, previous)
            }
            let magnitude = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
            return max(0, magnitude) * scale
        }
    }

    /// A spectrum over given frequencies whose densities the owner fills in place.
    init(frequencies: [Double]) {
        self.frequencies = frequencies
        density = Array(repeating: 0, count: frequencies.count)
    }

    /// Sets the densities; the same count as the frequencies.
    mutating func updateDensity(_ body: (inout [Double]) -> Void) {
        body(&density)
    }

    /// The periodic Hann window's value at `index` of `length` samples.
    static func hann(_ index: Int, length: Int) -> Double {
        0.5 - 0.5 * Double.cos(2 * Double.pi * Double(index) / Double(length))
    }

    /// The tachogram sampled at `sampleRate` from the first beat to the last, by linear
    /// interpolation; nil without beats.
    static func resample(times: [Double], intervals: [Double], sampleRate: Double) -> [Double]? {
        precondition(times.count == intervals.count, "one interval per beat time")
        guard let first = times.first, let last = times.last else { return nil }
        let sampleCount = Int(((last - first) * sampleRate).rounded(.down)) + 1
        var samples = [Double](repeating: 0, count: sampleCount)
        var segment = 0
        for index in 0..<sampleCount {
            let t = first + Double(index) / sampleRate
            while segment + 1 < times.count - 1, times[segment + 1] < t { segment += 1 }
            let (t0, t1) = (times[segment], times[min(segment + 1, times.count - 1)])
            let (v0, v1) = (intervals[segment], intervals[min(segment + 1, intervals.count - 1)])
            samples[index] = t1 > t0 ? v0 + (v1 - v0) * (t - t0) / (t1 - t0) : v0
        }
        return samples
    }

    /// Power (ms²) between `low` and `high` Hz: the density summed over the frequencies in
    /// `low..<high`.
    public func power(from low: Double, to high: Double) -> Double {
        guard frequencies.count > 1 else { return 0 }
        let step = frequencies[1] - frequencies[0]
        let range = indices(from: low, to: high, closed: false)
        return density.withUnsafeBufferPointer { density in
            var sum = 0.0
            for index in range { sum += density[index] }
            return sum * step
        }
    }

    /// The frequency of the highest density between `low` and `high` Hz (the lower of equal ones).
    public func peak(from low: Double, to high: Double) -> Double? {
        let range = indices(from: low, to: high, closed: true)
        guard !range.isEmpty else { return nil }
        let best = density.withUnsafeBufferPointer { density in
            var best = range.lowerBound
            for index in range.lowerBound &+ 1..<range.upperBound where density[index] > density[best] { best = index }
            return best
        }
        return frequencies[best]
    }

    /// Indices of the frequencies in `low..<high` (or `low...high`). The frequencies are evenly
    /// spaced, so the range is found by arithmetic, then checked against the values themselves.
    private func indices(from low: Double, to high: Double, closed: Bool) -> Range<Int> {
        frequencies.withUnsafeBufferPointer { frequencies in
            guard let first = frequencies.first, frequencies.count > 1, low.isFinite, high.isFinite else { return 0..<0 }
            let step = frequencies[1] - first
            let count = frequencies.count
            func inside(_ index: Int) -> Bool { closed ? frequencies[index] <= high : frequencies[index] < high }
            // Truncated rather than rounded down (floor is a call on this baseline): the two differ
            // only for a negative quotient, which the clamp to 0 turns into the same index.
            var start = min(count, max(0, Int((low - first) / step)))
            while start > 0, frequencies[start - 1] >= low { start -= 1 }
            while start < count, frequencies[start] < low { start += 1 }
            var end = min(count, max(start, Int((high - first) / step)))
            while end > start, !inside(end - 1) { end -= 1 }
            while end < count, inside(end) { end += 1 }
            return start..<end
        }
    }

    /// Removes the least-squares line over the sample index (and so the mean).
    static func removeLinearTrend(_ samples: inout [Double]) {
        let n = Double(samples.count)
        let meanX = (n - 1) / 2
        let meanY = samples.reduce(0, +) / n
        var covariance = 0.0, variance = 0.0
        for (index, value) in samples.enumerated() {
            let dx = Double(index) - meanX
            covariance += dx * (value - meanY)
            variance += dx * dx
        }
        let slope = variance > 0 ? covariance / variance : 0
        for index in samples.indices { samples[index] -= meanY + slope * (Double(index) - meanX) }
    }
}
