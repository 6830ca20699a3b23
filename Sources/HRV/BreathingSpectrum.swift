import RealModule

/// The RR spectrum of the last minute, kept up to date beat by beat: what the stress detector
/// reads breathing from every 10 s of a day-long recording. Computing each spectrum afresh made
/// the detector 80 % of `analyze`; here every sample is transformed once.
///
/// The numbers are ``RRSpectrum``'s (within 1e-12 of them: the block transforms add in another
/// order) on the last 60 s of a 2 Hz grid that starts at the first beat (after a gap, afresh), at
/// multiples of 1/120 Hz: 2 Hz holds the breathing band (≤ 0.5 Hz) with
/// room to spare, and the tachogram itself carries nothing above half the heart rate.
///
/// How: the grid is cut into 10-s blocks, and each completed block's transform at every
/// frequency is kept (phase taken from the grid's start, so blocks add). A frame is the sum of
/// its six blocks. The Hann window is applied afterwards, exactly, as three neighbouring bins
/// (w = ½ − ¼e^{iθm} − ¼e^{−iθm} with θ two bins wide, because the frame is zero-padded to twice
/// its length); the mean and linear trend are removed through the window's own transforms of 1
/// and of m, from the frame's sums of x and of m·x.
struct BreathingSpectrum {
    static let sampleRate = 2.0
    /// Samples in a block: 10 s, the interval between readings.
    static let blockLength = 20
    static let blocksPerFrame = 6
    static let frameLength = blockLength * blocksPerFrame
    /// Twice the frame's own resolution: read finer than its length, as ``RRSpectrum`` allows.
    static let resolution = sampleRate / Double(2 * frameLength)
    /// Bin numbers (multiples of `resolution`) of the breathing band…
    static let bins = Int((BreathingEstimate.band.lowerBound / resolution).rounded(.up))...Int((BreathingEstimate.band.upperBound / resolution).rounded(.down))
    /// …and of the block transforms: two more either side, for the window.
    static let transformedBins = (bins.lowerBound - 2)...(bins.upperBound + 2)
    /// Blocks after which a block's phase from the grid's start repeats (20 samples advance the
    /// phase of bin k by 2πk/12).
    static let phasePeriod = 12

    private static let tables = Tables()

    /// Block transforms of the last `blocksPerFrame` blocks (a ring of slots), and each block's
    /// Σx and Σm·x (m from the block's start). The transforms are kept by vector of bins, then
    /// slot, then real and imaginary part: a frame adds each vector's six slots from one place.
    private var transforms: [Vector]
    private var sums: [Double]
    private var moments: [Double]
    /// Samples of the block being filled, each in both lanes (the transform adds a sample to two
    /// bins at once). Inline, so a sample is stored without a uniqueness check.
    private var pending = InlineArray<20, Vector>(repeating: .zero)
    private var pendingCount = 0
    /// Blocks completed since the grid started; the next block's number.
    private var blockCount = 0
    private var origin = 0.0
    private var nextSample = 0
    private var lastBeat: (time: Double, milliseconds: Double)?
    /// The frame's transforms at the transformed bins (scratch, kept to avoid allocating).
    private var frameReal = Array(repeating: 0.0, count: binStride)
    private var frameImaginary = Array(repeating: 0.0, count: binStride)
    private var spectrum = RRSpectrum(frequencies: bins.map { Double($0) * resolution })

    init() {
        precondition(pending.count == Self.blockLength)
        let size = Self.vectors * Self.blocksPerFrame
        transforms = Array(repeating: .zero, count: 2 * size)
        sums = Array(repeating: 0, count: Self.blocksPerFrame)
        moments = Array(repeating: 0, count: Self.blocksPerFrame)
    }

    /// Adds a beat (times increasing); true when a block was completed, so the frame moved on.
    mutating func append(time: Double, milliseconds: Double) -> Bool {
        guard let (t0, v0) = lastBeat else {
            origin = time
            lastBeat = (time, milliseconds)
            nextSample = 1
            return push(milliseconds)
        }
        lastBeat = (time, milliseconds)
        var completed = false
        while true {
            let t = origin + Double(nextSample) / Self.sampleRate
            guard t <= time else { break }
            // The same interpolation as RRSpectrum.resample, so the samples are the same numbers.
            let value = time > t0 ? v0 + (milliseconds - v0) * (t - t0) / (time - t0) : v0
            nextSample += 1
            completed = push(value) || completed
        }
        return completed
    }

    /// Forgets everything: the next beat starts a new grid (a gap in the recording).
    mutating func removeAll() {
        lastBeat = nil
        pendingCount = 0
        blockCount = 0
        nextSample = 0
    }

    /// The breathing estimate of the last full frame; nil until one exists or when it is flat.
    mutating func estimate() -> BreathingEstimate? {
        guard blockCount >= Self.blocksPerFrame else { return nil }
        computeSpectrum()
        return BreathingEstimate(spectrum: spectrum)
    }

    /// The spectrum of the last full frame, for checking against ``RRSpectrum``.
    mutating func currentSpectrum() -> RRSpectrum? {
        guard blockCount >= Self.blocksPerFrame else { return nil }
        computeSpectrum()
        return spectrum
    }

    // MARK: blocks

    private mutating func push(_ sample: Double) -> Bool {
        pending[pendingCount] = Vector(repeating: sample)
        pendingCount += 1
        guard pendingCount == Self.blockLength else { return false }
        transformBlock()
        pendingCount = 0
        blockCount += 1
        return true
    }

    /// The completed block's transform at every bin, its phase counted from the grid's start:
    /// Σ x[m]·e^{−iωm} within the block, turned by e^{−iω·start}. By the Goertzel recurrence
    /// s[m] = x[m] + 2cos ω·s[m−1] − s[m−2] (one multiplication per sample and bin, where the
    /// plain sum takes two), two bins to a vector (one SSE2 register); then Σ x[m]·e^{−iωm} =
    /// e^{−iω(L−1)}·(s[L−1] − e^{−iω}·s[L−2]) for a block of L samples. Twenty samples are too few
    /// for the recurrence's rounding to grow: the spectra stay within 1e-12 of the plain sums'.
    private mutating func transformBlock() {
        let vectors = Self.vectors
        let slot = blockCount % Self.blocksPerFrame
        let end = (blockCount % Self.phasePeriod) * vectors
        let tables = Self.tables
        let (goertzel, cosine, sine) = (tables.goertzel.span, tables.cosine.span, tables.sine.span)
        let (endCosine, endSine) = (tables.endCosine.span, tables.endSine.span)
        let x = pending.span
        var sum = 0.0, moment = 0.0
        for m in 0..<Self.blockLength {
            sum += x[unchecked: m][0]
            moment += Double(m) * x[unchecked: m][0]
        }
        sums[blockCount % Self.blocksPerFrame] = sum
        moments[blockCount % Self.blocksPerFrame] = moment
        transforms.withUnsafeMutableBufferPointer { transforms in
            precondition(transforms.count == 2 * Self.blocksPerFrame * vectors)
            for chunk in 0..<vectors {
                let coefficient = goertzel[unchecked: chunk]
                // Two samples a step, the two states taking turns: no copying between them.
                var (s1, s2) = (Vector(), Vector())
                for m in Swift.stride(from: 0, to: Self.blockLength, by: 2) {
                    s2 = x[unchecked: m] + coefficient * s1 - s2
                    s1 = x[unchecked: m &+ 1] + coefficient * s2 - s1
                }
                // s[L−1] − e^{−iω}·s[L−2]…
                let (a, b) = (s1 - cosine[unchecked: chunk] * s2, sine[unchecked: chunk] * s2)
                // …× e^{−iω·(start + L − 1)}
                let (endC, endS) = (endCosine[unchecked: end &+ chunk], endSine[unchecked: end &+ chunk])
                let position = 2 &* (chunk &* Self.blocksPerFrame &+ slot)
                transforms[position] = a * endC + b * endS
                transforms[position &+ 1] = b * endC - a * endS
            }
        }
    }

    // MARK: the frame

    private mutating func computeSpectrum() {
        let blocks = Self.blocksPerFrame
        let tables = Self.tables
        // The frame's first block, and the frame's Σx and Σm·x (m from the frame's start).
        let first = blockCount - blocks
        var sumX = 0.0, sumMX = 0.0
        for position in 0..<blocks {
            let slot = (first + position) % blocks
            sumX += sums[slot]
            sumMX += moments[slot] + Double(position * Self.blockLength) * sums[slot]
        }
        // The least-squares line RRSpectrum removes: mean, and slope about the middle.
        let n = Double(Self.frameLength)
        let middle = (n - 1) / 2
        let slope = (sumMX - middle * sumX) / tables.indexVariance
        let intercept = sumX / n - slope * middle
        // The frame's transform at each bin, its phase now counted from the frame's start.
        let vectors = Self.vectors
        let turn = (first % Self.phasePeriod) * vectors
        let (turnCosine, turnSine) = (tables.turnCosine.span, tables.turnSine.span)
        let storage = self.transforms
        let transforms = storage.span
        precondition(transforms.count == 2 * blocks * vectors)
        self.frameReal.withUnsafeMutableBufferPointer { frameReal in
            self.frameImaginary.withUnsafeMutableBufferPointer { frameImaginary in
                precondition(frameReal.count == Self.binStride && frameImaginary.count == Self.binStride)
                let (frameReal, frameImaginary) = (frameReal.baseAddress!, frameImaginary.baseAddress!)
                for chunk in 0..<vectors {
                    let base = 2 &* blocks &* chunk
                    var (re, im) = (transforms[unchecked: base], transforms[unchecked: base &+ 1])
                    for slot in 1..<blocks {
                        re += transforms[unchecked: base &+ 2 &* slot]
                        im += transforms[unchecked: base &+ 2 &* slot &+ 1]
                    }
                    // × e^{+iω·start}, the conjugate of the turn
                    let (turnC, turnS) = (turnCosine[unchecked: turn &+ chunk], turnSine[unchecked: turn &+ chunk])
                    (re * turnC - im * turnS).store(frameReal + 2 &* chunk)
                    (re * turnS + im * turnC).store(frameImaginary + 2 &* chunk)
                }
            }
        }
        let scale = tables.densityScale
        let (frameReal, frameImaginary) = (self.frameReal, self.frameImaginary)
        spectrum.updateDensity { density in
            let (frameReal, frameImaginary) = (frameReal.span, frameImaginary.span)
            let (windowReal, windowImaginary) = (tables.windowReal.span, tables.windowImaginary.span)
            let (rampReal, rampImaginary) = (tables.rampReal.span, tables.rampImaginary.span)
            density.withUnsafeMutableBufferPointer { density in
                precondition(frameReal.count >= density.count + 4 && frameImaginary.count == frameReal.count)
                precondition(windowReal.count == density.count && windowImaginary.count == density.count)
                precondition(rampReal.count == density.count && rampImaginary.count == density.count)
                for index in 0..<density.count {
                    // The Hann window as three bins, then the windowed line's transform taken away.
                    let bin = index &+ 2
                    let re = 0.5 * frameReal[unchecked: bin] - 0.25 * (frameReal[unchecked: bin &- 2] + frameReal[unchecked: bin &+ 2])
                        - intercept * windowReal[unchecked: index] - slope * rampReal[unchecked: index]
                    let im = 0.5 * frameImaginary[unchecked: bin] - 0.25 * (frameImaginary[unchecked: bin &- 2] + frameImaginary[unchecked: bin &+ 2])
                        - intercept * windowImaginary[unchecked: index] - slope * rampImaginary[unchecked: index]
                    density[index] = (re * re + im * im) * scale
                }
            }
        }
    }

    /// Two bins: one SSE2 register on the x86-64 baseline (a SIMD4 is two, and its operations
    /// cost twice the instructions for no fewer loads).
    typealias Vector = SIMD2<Double>
    /// Transformed bins padded to whole vectors.
    static let binStride = (transformedBins.count + 1) / 2 * 2
    static let vectors = binStride / 2

    /// Constants of the transform, computed once; per-bin rows padded to `binStride`.
    private struct Tables {
        /// 2cos ω_k, cos ω_k and sin ω_k for each transformed bin k (column).
        let goertzel: [Vector]
        let cosine: [Vector]
        let sine: [Vector]
        /// cos and sin of ω_k·(20b + 19) for b in 0..<phasePeriod (row b): a block's last sample.
        let endCosine: [Vector]
        let endSine: [Vector]
        /// cos and sin of ω_k·20b for b in 0..<phasePeriod (row b): a block's start.
        let turnCosine: [Vector]
        let turnSine: [Vector]
        /// The windowed frame's transforms of 1 and of m at each bin of the band.
        let windowReal: [Double]
        let windowImaginary: [Double]
        let rampReal: [Double]
        let rampImaginary: [Double]
        /// Σ(m − mean m)² over the frame.
        let indexVariance: Double
        /// 2 / (sample rate · Σw²), as RRSpectrum scales.
        let densityScale: Double

        init() {
            let bins = BreathingSpectrum.transformedBins
            let length = BreathingSpectrum.blockLength
            let frame = BreathingSpectrum.frameLength
            func omega(_ bin: Int) -> Double { 2 * Double.pi * Double(bin) * BreathingSpectrum.resolution / BreathingSpectrum.sampleRate }
            /// Rows of `f(bin, row)` over the transformed bins, padded with zeros, as vectors
            /// indexed by row · vectors + chunk.
            func rows(_ count: Int, _ f: (Int, Int) -> Double) -> [Vector] {
                (0..<count).flatMap { row in
                    Swift.stride(from: 0, to: BreathingSpectrum.binStride, by: 2).map { column in
                        var vector = Vector()
                        for lane in 0..<2 where column + lane < bins.count {
                            vector[lane] = f(bins.lowerBound + column + lane, row)
                        }
                        return vector
                    }
                }
            }
            goertzel = rows(1) { k, _ in 2 * Double.cos(omega(k)) }
            cosine = rows(1) { k, _ in Double.cos(omega(k)) }
            sine = rows(1) { k, _ in Double.sin(omega(k)) }
            endCosine = rows(BreathingSpectrum.phasePeriod) { k, b in Double.cos(omega(k) * Double(b * length + length - 1)) }
            endSine = rows(BreathingSpectrum.phasePeriod) { k, b in Double.sin(omega(k) * Double(b * length + length - 1)) }
            turnCosine = rows(BreathingSpectrum.phasePeriod) { k, b in Double.cos(omega(k) * Double(b * length)) }
            turnSine = rows(BreathingSpectrum.phasePeriod) { k, b in Double.sin(omega(k) * Double(b * length)) }
            let window = (0..<frame).map { RRSpectrum.hann($0, length: frame) }
            // The windowed frame's transforms of 1 and of m, from one cos and sin per bin and
            // sample (each sum in sample order).
            var (windowReal, windowImaginary, rampReal, rampImaginary) = ([Double](), [Double](), [Double](), [Double]())
            for k in BreathingSpectrum.bins {
                var (wr, wi, rr, ri) = (0.0, 0.0, 0.0, 0.0)
                for m in 0..<frame {
                    let (cos, sin) = (Double.cos(omega(k) * Double(m)), Double.sin(omega(k) * Double(m)))
                    let ramp = window[m] * Double(m)
                    (wr, wi) = (wr + window[m] * cos, wi - window[m] * sin)
                    (rr, ri) = (rr + ramp * cos, ri - ramp * sin)
                }
                windowReal.append(wr)
                windowImaginary.append(wi)
                rampReal.append(rr)
                rampImaginary.append(ri)
            }
            (self.windowReal, self.windowImaginary, self.rampReal, self.rampImaginary) = (windowReal, windowImaginary, rampReal, rampImaginary)
            let middle = Double(frame - 1) / 2
            indexVariance = (0..<frame).reduce(0.0) { $0 + (Double($1) - middle) * (Double($1) - middle) }
            densityScale = 2 / (BreathingSpectrum.sampleRate * window.reduce(0.0) { $0 + $1 * $1 })
            // The transforms read the rows unchecked.
            let vectors = BreathingSpectrum.vectors, rowsOfPhases = BreathingSpectrum.phasePeriod * vectors
            precondition(goertzel.count == vectors && cosine.count == vectors && sine.count == vectors)
            precondition([endCosine, endSine, turnCosine, turnSine].allSatisfy { $0.count == rowsOfPhases })
        }
    }
}
