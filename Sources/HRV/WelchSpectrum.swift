/// Welch's averaged periodogram of an evenly sampled series (ms), after its least-squares line
/// over the whole series is removed: periodic Hann segments of `segmentLength` samples with 50 %
/// overlap, each zero-padded to `transformLength`, one-sided density in ms²/Hz; samples after the
/// last whole segment count for the line but not in a segment; a series shorter than one segment
/// is one segment of its own length (scipy's `welch` with `detrend=False` on the detrended series).
/// Only the bins below `highestFrequency` (and the first at or above it) are kept.
///
/// It streams in constant memory although the line is known only at the end: a segment's
/// transform of x − (a + b·n) is X − (a + b·n₀)·W − b·R, where W and R are the window's
/// transforms of 1 and of m, so |·|² expands into sums over segments of |X|², Re(X·W̄),
/// n₀·Re(X·W̄) and Re(X·R̄), which are kept per frequency; a and b are applied at the end.
struct WelchSpectrum {
    let sampleRate: Double
    let segmentLength: Int
    let transformLength: Int
    var step: Int { segmentLength / 2 }
    /// Bins kept: those below `highestFrequency`, and one more.
    let binCount: Int

    private var fourier: RealFourierTransform
    private let window: [Double]
    /// The window's transforms of 1 and of m, per bin.
    private let windowReal: [Double], windowImaginary: [Double]
    private let rampReal: [Double], rampImaginary: [Double]

    /// The last `segmentLength` samples, less `offset` (the first sample, so the sums stay
    /// small): a ring written twice over, at `position` and `position + segmentLength`, so the
    /// last segment lies in one piece from `position` on.
    private var recent: [Double]
    private var offset = 0.0
    private var count = 0
    /// Where the next sample goes in `recent`, and samples until the next segment is complete.
    private var position = 0
    private var untilSegment: Int
    /// Σx and Σn·x over all samples (n from 0), for the line.
    private var sum = 0.0
    private var indexedSum = 0.0
    /// Per bin, over segments: Σ|X|², ΣRe(X·W̄), Σn₀·Re(X·W̄), ΣRe(X·R̄).
    private var power: [Double], windowProjection: [Double], startWeightedProjection: [Double], rampProjection: [Double]
    /// Segments, and Σn₀ and Σn₀² of their first samples.
    private var segments = 0
    private var startSum = 0.0
    private var startSquares = 0.0
    /// Scratch: one windowed segment (the transform pads it with zeros), and its transform.
    private var frame: [Double]
    private var transformReal: [Double], transformImaginary: [Double]

    init(sampleRate: Double, segmentLength: Int, transformLength: Int, highestFrequency: Double) {
        precondition(segmentLength % 2 == 0 && transformLength >= segmentLength && highestFrequency > 0)
        self.sampleRate = sampleRate
        self.segmentLength = segmentLength
        self.transformLength = transformLength
        untilSegment = segmentLength
        binCount = min(Int((highestFrequency * Double(transformLength) / sampleRate).rounded(.up)), transformLength / 2) + 1
        fourier = RealFourierTransform(length: transformLength)
        window = (0..<segmentLength).map { RRSpectrum.hann($0, length: segmentLength) }
        let bins = binCount
        recent = Array(repeating: 0, count: 2 * segmentLength)
        frame = Array(repeating: 0, count: segmentLength)
        transformReal = Array(repeating: 0, count: bins)
        transformImaginary = transformReal
        power = transformReal
        windowProjection = transformReal
        startWeightedProjection = transformReal
        rampProjection = transformReal
        (windowReal, windowImaginary) = Self.transform(window, bins: bins, using: &fourier)
        (rampReal, rampImaginary) = Self.transform(window.enumerated().map { Double($0) * $1 }, bins: bins, using: &fourier)
    }

    mutating func append(contentsOf samples: UnsafeBufferPointer<Double>) {
        guard !samples.isEmpty else { return }
        if count == 0 { offset = samples[0] }
        var index = 0
        while index < samples.count {
            // Up to the end of the next segment, a plain loop.
            let stretch = min(untilSegment, samples.count - index)
            let (offset, length) = (offset, segmentLength)
            var (position, count, sum, indexedSum) = (position, count, sum, indexedSum)
            recent.withUnsafeMutableBufferPointer { recent in
                for sample in samples[index..<(index + stretch)] {
                    let value = sample - offset
                    recent[position] = value
                    recent[position + length] = value
                    position = position &+ 1 == length ? 0 : position &+ 1
                    sum += value
                    indexedSum += Double(count) * value
                    count &+= 1
                }
            }
            (self.position, self.count, self.sum, self.indexedSum) = (position, count, sum, indexedSum)
            index += stretch
            untilSegment -= stretch
            if untilSegment == 0 {
                addSegment(start: count - segmentLength)
                untilSegment = step
            }
        }
    }

    /// The density per bin (ms²/Hz) at frequencies k·sampleRate/transformLength, and the
    /// segments averaged; nil with fewer than 8 samples.
    func density() -> (frequencies: [Double], density: [Double], segments: Int)? {
        guard count >= 8 else { return nil }
        let resolution = sampleRate / Double(transformLength)
        let frequencies = (0..<binCount).map { Double($0) * resolution }
        guard count >= segmentLength else { return (frequencies, shortSeriesDensity(), 1) }
        // The line a + b·n through all samples.
        let n = Double(count)
        let middle = (n - 1) / 2
        let indexVariance = n * (n * n - 1) / 12
        let b = (indexedSum - middle * sum) / indexVariance
        let a = sum / n - b * middle
        let segmentCount = Double(segments)
        let startTotal = a * segmentCount + b * startSum
        let startSquaresTotal = a * a * segmentCount + 2 * a * b * startSum + b * b * startSquares
        let scale = 1 / (sampleRate * window.reduce(0) { $0 + $1 * $1 } * segmentCount)
        var density = [Double](repeating: 0, count: binCount)
        for k in 0..<binCount {
            let windowSquared = windowReal[k] * windowReal[k] + windowImaginary[k] * windowImaginary[k]
            let rampSquared = rampReal[k] * rampReal[k] + rampImaginary[k] * rampImaginary[k]
            let cross = windowReal[k] * rampReal[k] + windowImaginary[k] * rampImaginary[k]
            let total = power[k] - 2 * (a * windowProjection[k] + b * startWeightedProjection[k]) - 2 * b * rampProjection[k]
                + windowSquared * startSquaresTotal + b * b * segmentCount * rampSquared + 2 * b * cross * startTotal
            let oneSided = k == 0 || k == transformLength / 2 ? 1.0 : 2.0
            density[k] = max(0, total) * scale * oneSided
        }
        return (frequencies, density, segments)
    }

    // MARK: segments

    private mutating func addSegment(start: Int) {
        // The ring's last segment in one piece from `position` on.
        let first = position
        frame.withUnsafeMutableBufferPointer { frame in
            recent.withUnsafeBufferPointer { recent in
                window.withUnsafeBufferPointer { window in
                    // Two at a time in SIMD2 lanes (the length is even), each the scalar product.
                    let (frame, recent, window) = (frame.baseAddress!, recent.baseAddress! + first, window.baseAddress!)
                    for m in stride(from: 0, to: segmentLength, by: 2) {
                        (SIMD2.load(recent + m) * SIMD2.load(window + m)).store(frame + m)
                    }
                }
            }
        }
        fourier.transform(frame, real: &transformReal, imaginary: &transformImaginary)
        let n0 = Double(start)
        transformReal.withUnsafeBufferPointer { transformReal in
            transformImaginary.withUnsafeBufferPointer { transformImaginary in
                for k in 0..<binCount {
                    let (re, im) = (transformReal[k], transformImaginary[k])
                    let projection = re * windowReal[k] + im * windowImaginary[k]
                    power[k] += re * re + im * im
                    windowProjection[k] += projection
                    startWeightedProjection[k] += n0 * projection
                    rampProjection[k] += re * rampReal[k] + im * rampImaginary[k]
                }
            }
        }
        segments += 1
        startSum += n0
        startSquares += n0 * n0
    }

    /// A series shorter than a segment: detrended, one periodic Hann window of its own length,
    /// zero-padded to the transform length.
    private func shortSeriesDensity() -> [Double] {
        var samples = Array(recent[0..<count])
        RRSpectrum.removeLinearTrend(&samples)
        var windowPower = 0.0
        for index in samples.indices {
            let w = RRSpectrum.hann(index, length: count)
            samples[index] *= w
            windowPower += w * w
        }
        var fourier = RealFourierTransform(length: transformLength)
        var (real, imaginary) = ([Double](repeating: 0, count: binCount), [Double](repeating: 0, count: binCount))
        fourier.transform(samples, real: &real, imaginary: &imaginary)
        return (0..<binCount).map { k in
            let oneSided = k == 0 || k == transformLength / 2 ? 1.0 : 2.0
            return (real[k] * real[k] + imaginary[k] * imaginary[k]) / (sampleRate * windowPower) * oneSided
        }
    }

    private static func transform(_ values: [Double], bins: Int, using fourier: inout RealFourierTransform) -> ([Double], [Double]) {
        var (real, imaginary) = ([Double](repeating: 0, count: bins), [Double](repeating: 0, count: bins))
        fourier.transform(values, real: &real, imaginary: &imaginary)
        return (real, imaginary)
    }
}

extension RealFourierTransform {
    /// The transform of `samples` (zero-padded to the length) into `real` and `imaginary`.
    mutating func transform(_ samples: [Double], real: inout [Double], imaginary: inout [Double]) {
        samples.withUnsafeBufferPointer { samples in
            real.withUnsafeMutableBufferPointer { real in
                imaginary.withUnsafeMutableBufferPointer { transform(samples, real: real, imaginary: $0) }
            }
        }
    }
}
