import RealModule

/// The power spectrum of a stretch of NN intervals, as the frequency-domain HRV tools compute it
/// (Task Force 1996; Kubios and NeuroKit2 defaults): the tachogram — each interval placed at the
/// time of the beat that ends it — resampled evenly at 4 Hz by linear interpolation, its mean and
/// linear trend removed, a Hann window, and the periodogram (ms²/Hz) at frequencies spaced
/// `resolution` apart. Computed directly at the frequencies asked for, so a short window can be
/// read finer than its length (zero padding). Pure.
public struct RRSpectrum: Equatable, Sendable {
    public let frequencies: [Double]
    /// Power spectral density at each frequency, ms²/Hz.
    public let density: [Double]

    public static let sampleRate = 4.0

    /// Nil with fewer than 8 samples of the resampled series (about 2 s) or no beats.
    /// - Parameters:
    ///   - times: beat times, seconds, increasing.
    ///   - intervals: the interval ending at each beat, milliseconds.
    public init?(times: [Double], intervals: [Double], band: ClosedRange<Double>, resolution: Double = 1.0 / 128) {
        precondition(times.count == intervals.count, "one interval per beat time")
        guard let first = times.first, let last = times.last else { return nil }
        let sampleCount = Int(((last - first) * Self.sampleRate).rounded(.down)) + 1
        guard sampleCount >= 8 else { return nil }
        var samples = [Double](repeating: 0, count: sampleCount)
        var segment = 0
        for index in 0..<sampleCount {
            let t = first + Double(index) / Self.sampleRate
            while segment + 1 < times.count - 1, times[segment + 1] < t { segment += 1 }
            let (t0, t1) = (times[segment], times[min(segment + 1, times.count - 1)])
            let (v0, v1) = (intervals[segment], intervals[min(segment + 1, intervals.count - 1)])
            samples[index] = t1 > t0 ? v0 + (v1 - v0) * (t - t0) / (t1 - t0) : v0
        }
        Self.removeLinearTrend(&samples)
        // Hann window; the density is scaled by the window's power so that a sinusoid's power is
        // the integral of its peak (one-sided, as scipy's periodogram with scaling="density").
        let n = Double(sampleCount)
        var windowPower = 0.0
        for index in 0..<sampleCount {
            let w = 0.5 - 0.5 * Double.cos(2 * Double.pi * Double(index) / (n - 1))
            samples[index] *= w
            windowPower += w * w
        }
        let scale = 2 / (Self.sampleRate * windowPower)
        var frequencies: [Double] = []
        var density: [Double] = []
        var f = (band.lowerBound / resolution).rounded(.up) * resolution
        while f <= band.upperBound + 1e-12 {
            // |Σ x[n] e^{-iωn}|² by the Goertzel recurrence: one multiplication per sample and
            // frequency (the detector reads a spectrum every 10 s of a day-long file).
            let coefficient = 2 * Double.cos(2 * Double.pi * f / Self.sampleRate)
            var (previous, beforePrevious) = (0.0, 0.0)
            for value in samples {
                (previous, beforePrevious) = (value + coefficient * previous - beforePrevious, previous)
            }
            let magnitude = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
            frequencies.append(f)
            density.append(max(0, magnitude) * scale)
            f += resolution
        }
        self.frequencies = frequencies
        self.density = density
    }

    /// Power (ms²) between `low` and `high` Hz: the density summed over the frequencies in the band.
    public func power(from low: Double, to high: Double) -> Double {
        guard frequencies.count > 1 else { return 0 }
        let step = frequencies[1] - frequencies[0]
        return zip(frequencies, density).reduce(0) { $0 + ($1.0 >= low && $1.0 < high ? $1.1 * step : 0) }
    }

    /// The frequency of the highest density between `low` and `high` Hz.
    public func peak(from low: Double, to high: Double) -> Double? {
        zip(frequencies, density).filter { $0.0 >= low && $0.0 <= high }.max { $0.1 < $1.1 }?.0
    }

    private static func removeLinearTrend(_ samples: inout [Double]) {
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
