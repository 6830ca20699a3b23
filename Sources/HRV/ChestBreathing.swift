import RealModule

/// Breathing as a chest strap's accelerometer shows it while the wearer is still: each breath
/// tilts the chest, so the direction of gravity in the strap's axes swings by a degree or so at
/// the breathing rate (Bates et al. 2010, "Respiratory rate and flow waveform estimation from
/// tri-axial accelerometer data"; the approach of chest-strap breathing apps such as Every Breath
/// You Take). Pure.
public struct ChestBreathing: Equatable, Sendable {
    public enum Phase: String, Sendable, CaseIterable {
        case inhaling, exhaling
    }

    /// Breaths per minute, to a tenth.
    public var rate: Double
    /// Where the breath is at the end of the second.
    public var phase: Phase
    /// Seconds (to a tenth) before the end of the second at which the current breath's
    /// inhalation began: the time of each breath.
    public var breathBegan: Double
    /// The breathing rhythm's share of the chest's tilting (0.05–0.9 Hz), 0–1: one regular
    /// rhythm is near 1; fidgeting, talking or the sensor's noise alone spread it. To a hundredth.
    public var quality: Double

    public init(rate: Double, phase: Phase, breathBegan: Double, quality: Double) {
        self.rate = rate
        self.phase = phase
        self.breathBegan = breathBegan
        self.quality = quality
    }
}

/// Reads ``ChestBreathing`` from accelerometer samples (mG, any orientation of the strap).
///
/// Samples are averaged to 5 Hz and turned into gravity's direction (a unit vector). Over the last
/// `window` seconds, the directions' small rotation about their mean is taken in the plane
/// across the mean (two angles, each detrended and Hann-windowed); its principal axis within the
/// breathing band (0.07–0.7 Hz: 4–42 breaths a minute) is the axis the chest tilts about. The
/// tilt along that axis gives the rate (its spectral peak, interpolated), the quality (the peak's
/// share) and the phase (a sine at the rate fitted to the last breath and a half). Nothing here
/// depends on how the strap is turned about its face; its sign is chosen by the face alone
/// (unsigned, so flipping the strap changes nothing): inhaling is gravity moving onto the face,
/// as in the simulated chest (`SimulatedAccelerometer`); on a real chest the sign depends on the
/// posture and was not checked (docs/science.md).
///
/// None while the chest moves (any second not still restarts the window), before the window is
/// full, when the tilting is below `minimumTilt` or its quality below `minimumQuality`.
public struct ChestBreathingMeter: Sendable {
    public static let window = 32.0
    public static let blockRate = 5.0
    public static let band = 0.07...0.7
    /// What the quality's share is taken of: the band and the slow and quick movements beside it,
    /// below the heart's recoil (≥ 1 Hz at any heart rate above 60).
    public static let totalBand = 0.05...0.9
    /// The peak's half-width: the Hann window's main lobe over 32 s is ±0.0625 Hz.
    public static let peakHalfWidth = 0.05
    public static let minimumQuality = 0.8
    /// Radians: 2 mG of gravity's 1000 moving with the breath.
    public static let minimumTilt = 0.002
    static let transformLength = 1024

    public let sampleRate: Double
    private let perBlock: Int
    private let capacity: Int
    private var block = SIMD3<Double>()
    private var inBlock = 0
    /// Gravity's direction per block, oldest first.
    private var directions: [SIMD3<Double>] = []
    private var fourier = RealFourierTransform(length: Self.transformLength)

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        perBlock = max(1, Int((sampleRate / Self.blockRate).rounded()))
        capacity = Int(Self.window * Self.blockRate)
    }

    /// Adds one sample (mG).
    public mutating func append(_ sample: SIMD3<Double>) {
        block += sample
        inBlock += 1
        guard inBlock == perBlock else { return }
        let size = (block * block).sum().squareRoot()
        if size > 0 { directions.append(block / size) }
        if directions.count > capacity { directions.removeFirst(directions.count - capacity) }
        (block, inBlock) = (SIMD3(), 0)
    }

    /// Forgets the window: the chest moved.
    public mutating func restart() {
        directions.removeAll(keepingCapacity: true)
    }

    /// The breathing over the window ending now; nil when there is none to read.
    public mutating func estimate() -> ChestBreathing? {
        guard directions.count == capacity else { return nil }
        let mean = directions.reduce(SIMD3<Double>(), +)
        let down = mean / (mean * mean).sum().squareRoot()
        // Two directions across gravity: tilts about them are the two angles.
        let axis: SIMD3<Double> = abs(down.x) < 0.6 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0)
        let first = normalised(axis - down * (axis * down).sum())
        let second = cross(down, first)
        var angles = (directions.map { ($0 * first).sum() }, directions.map { ($0 * second).sum() })
        detrend(&angles.0)
        detrend(&angles.1)
        let (one, two) = (transform(angles.0), transform(angles.1))
        let binWidth = Self.blockRate / Double(Self.transformLength)
        let bins = Int((Self.band.lowerBound / binWidth).rounded(.up))...Int(Self.band.upperBound / binWidth)
        var (xx, yy, xy) = (0.0, 0.0, 0.0)
        for k in bins {
            xx += one.re[k] * one.re[k] + one.im[k] * one.im[k]
            yy += two.re[k] * two.re[k] + two.im[k] * two.im[k]
            xy += one.re[k] * two.re[k] + one.im[k] * two.im[k]
        }
        let theta = 0.5 * Double.atan2(y: 2 * xy, x: xx - yy)
        var (c, s) = (Double.cos(theta), Double.sin(theta))
        // Positive tilt: gravity onto the strap's face, whichever way the face points.
        let tiltAxis = first * c + second * s
        if tiltAxis.z * (down.z == 0 ? 1 : down.z) < 0 { (c, s) = (-c, -s) }
        let power = (0..<one.re.count).map { k in
            let re = c * one.re[k] + s * two.re[k], im = c * one.im[k] + s * two.im[k]
            return re * re + im * im
        }
        guard let peak = bins.max(by: { power[$0] < power[$1] }), power[peak] > 0 else { return nil }
        let frequency = (Double(peak) + interpolation(power, at: peak)) * binWidth
        let total = sum(power, from: Self.totalBand.lowerBound, to: Self.totalBand.upperBound, binWidth: binWidth)
        let quality = sum(power, from: frequency - Self.peakHalfWidth, to: frequency + Self.peakHalfWidth, binWidth: binWidth) / total
        let tilt = zip(angles.0, angles.1).map { c * $0 + s * $1 }
        guard quality >= Self.minimumQuality, let wave = Self.fit(tilt, frequency: frequency), wave.amplitude >= Self.minimumTilt else {
            return nil
        }
        // The wave is amplitude·cos(angle) at the window's end: rising (inhaling) while sin(angle) < 0;
        // the breath began at the last trough, angle = π.
        let angle = wave.angle
        let sinceTrough = (angle - Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi)
        let began = (sinceTrough < 0 ? sinceTrough + 2 * Double.pi : sinceTrough) / (2 * Double.pi * frequency)
        // Rounded as the session file keeps them, so a replay judges with the same numbers.
        return ChestBreathing(
            rate: (frequency * 600).rounded() / 10, phase: Double.sin(angle) < 0 ? .inhaling : .exhaling,
            breathBegan: (began * 10).rounded() / 10, quality: (min(1, quality) * 100).rounded() / 100)
    }

    /// A sine at `frequency` fitted by least squares to the last breath and a half of `tilt`
    /// (block-spaced): its amplitude and its angle at the last block.
    static func fit(_ tilt: [Double], frequency: Double) -> (amplitude: Double, angle: Double)? {
        let count = min(tilt.count, Int((1.5 * blockRate / frequency).rounded(.up)))
        guard count >= 4 else { return nil }
        var (cc, ss, cs, yc, ys) = (0.0, 0.0, 0.0, 0.0, 0.0)
        // Time 0 is the last block, earlier ones negative.
        for index in 0..<count {
            let t = -Double(index) / blockRate
            let (cosine, sine) = (Double.cos(2 * Double.pi * frequency * t), Double.sin(2 * Double.pi * frequency * t))
            let y = tilt[tilt.count - 1 - index]
            cc += cosine * cosine
            ss += sine * sine
            cs += cosine * sine
            yc += y * cosine
            ys += y * sine
        }
        let determinant = cc * ss - cs * cs
        guard determinant > 0 else { return nil }
        // y ≈ a·cos(ωt) + b·sin(ωt) = A·cos(ωt + φ) with A cos φ = a, −A sin φ = b.
        let a = (yc * ss - ys * cs) / determinant
        let b = (ys * cc - yc * cs) / determinant
        return ((a * a + b * b).squareRoot(), Double.atan2(y: -b, x: a))
    }

    private mutating func transform(_ values: [Double]) -> (re: [Double], im: [Double]) {
        let windowed = values.indices.map { values[$0] * RRSpectrum.hann($0, length: values.count) }
        let bins = Int(Self.totalBand.upperBound / (Self.blockRate / Double(Self.transformLength))) + 2
        var (real, imaginary) = ([Double](repeating: 0, count: bins), [Double](repeating: 0, count: bins))
        fourier.transform(windowed, real: &real, imaginary: &imaginary)
        return (real, imaginary)
    }

    private func sum(_ power: [Double], from low: Double, to high: Double, binWidth: Double) -> Double {
        let first = max(0, Int((low / binWidth).rounded(.up)))
        let last = min(power.count - 1, Int(high / binWidth))
        return first <= last ? power[first...last].reduce(0, +) : 0
    }
}

/// The offset (−0.5…0.5 bins) of a peak's top from a parabola through it and its neighbours.
private func interpolation(_ power: [Double], at peak: Int) -> Double {
    guard peak > 0, peak + 1 < power.count else { return 0 }
    let (left, middle, right) = (power[peak - 1], power[peak], power[peak + 1])
    let curvature = left - 2 * middle + right
    return curvature < 0 ? max(-0.5, min(0.5, 0.5 * (left - right) / curvature)) : 0
}

/// Removes the least-squares line.
private func detrend(_ values: inout [Double]) {
    let n = Double(values.count)
    let meanIndex = (n - 1) / 2
    let mean = values.reduce(0, +) / n
    var (covariance, variance) = (0.0, 0.0)
    for (index, value) in values.enumerated() {
        covariance += (Double(index) - meanIndex) * (value - mean)
        variance += (Double(index) - meanIndex) * (Double(index) - meanIndex)
    }
    let slope = variance > 0 ? covariance / variance : 0
    for index in values.indices { values[index] -= mean + slope * (Double(index) - meanIndex) }
}

private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
