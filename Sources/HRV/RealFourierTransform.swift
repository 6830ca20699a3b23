import RealModule

/// The discrete Fourier transform X_k = Σ x[m]·e^{−2πikm/n} of real samples, of a power-of-two
/// length, for k = 0…n/2 (the rest mirror them). The n real samples are packed as
/// n/2 complex ones, transformed by an iterative radix-2 FFT, and unpacked (the standard
/// real-input method), so a transform costs O(n log n) with the tables and the scratch space made
/// once: no allocation per transform.
struct RealFourierTransform {
    let length: Int
    private let half: Int
    /// Bit-reversed order of 0..<half.
    private let reversed: [Int]
    /// The butterflies' twiddles e^{−2πik/half} stage by stage: the stage of span s (a power of
    /// two) at [s, 2s), its j-th butterfly's at s + j, so a stage reads them in order.
    private let stageCosine: [Double]
    private let stageSine: [Double]
    /// e^{−2πik/length} for the unpacking, k ≤ half.
    private let unpackCosine: [Double]
    private let unpackSine: [Double]
    private var real: [Double]
    private var imaginary: [Double]

    init(length: Int) {
        precondition(length >= 4 && length & (length - 1) == 0, "a power of two, at least 4")
        self.length = length
        half = length / 2
        let bits = half.trailingZeroBitCount
        reversed = (0..<half).map { index in
            var (value, result) = (index, 0)
            for _ in 0..<bits {
                result = result << 1 | value & 1
                value >>= 1
            }
            return result
        }
        // Stage s's j-th twiddle is e^{−2πi·k/half} with k = j·half/(2s).
        let twiddleIndex = (0..<half).map { [half] position in
            let bits = Int.bitWidth - position.leadingZeroBitCount
            return position == 0 ? 0 : (position - 1 << (bits - 1)) * (half >> bits)
        }
        let turns = Double(length / 2)
        stageCosine = twiddleIndex.map { Double.cos(2 * Double.pi * Double($0) / turns) }
        stageSine = twiddleIndex.map { -Double.sin(2 * Double.pi * Double($0) / turns) }
        unpackCosine = (0...half).map { Double.cos(2 * Double.pi * Double($0) / Double(length)) }
        unpackSine = (0...half).map { -Double.sin(2 * Double.pi * Double($0) / Double(length)) }
        real = Array(repeating: 0, count: half)
        imaginary = Array(repeating: 0, count: half)
    }

    /// X_k of `samples` (exactly `length` of them) into `outputReal` and `outputImaginary`, for
    /// k below their count (at most length/2 + 1): a caller that needs the low frequencies only
    /// does not pay for unpacking the rest.
    mutating func transform(
        _ samples: UnsafeBufferPointer<Double>, real outputReal: UnsafeMutableBufferPointer<Double>,
        imaginary outputImaginary: UnsafeMutableBufferPointer<Double>
    ) {
        let outputs = outputReal.count
        precondition(samples.count == length && outputs == outputImaginary.count && outputs > 0 && outputs <= half + 1)
        let half = self.half
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                reversed.withUnsafeBufferPointer { reversed in
                    // z[j] = x[2j] + i·x[2j+1], in bit-reversed order.
                    for index in 0..<half {
                        let target = reversed[index]
                        re[target] = samples[2 * index]
                        im[target] = samples[2 * index + 1]
                    }
                }
                Self.butterflies(re, im, cosine: stageCosine, sine: stageSine)
                unpackCosine.withUnsafeBufferPointer { unpackCosine in
                    unpackSine.withUnsafeBufferPointer { unpackSine in
                        // X_k = (Z_k + conj Z_{h−k})/2 + e^{−2πik/n}·(Z_k − conj Z_{h−k})/(2i)
                        for k in 0..<outputs {
                            let (a, b) = (k == half ? 0 : k, k == 0 ? 0 : half - k)
                            let (zr, zi) = (re[a], im[a])
                            let (cr, ci) = (re[b], -im[b])
                            let (evenR, evenI) = (0.5 * (zr + cr), 0.5 * (zi + ci))
                            // (Z − conj)/(2i) = ((zi − ci) − i(zr − cr))/2
                            let (oddR, oddI) = (0.5 * (zi - ci), -0.5 * (zr - cr))
                            let (wr, wi) = (unpackCosine[k], unpackSine[k])
                            outputReal[k] = evenR + wr * oddR - wi * oddI
                            outputImaginary[k] = evenI + wr * oddI + wi * oddR
                        }
                    }
                }
            }
        }
    }

    /// In-place radix-2 decimation-in-time FFT of bit-reversed `re`/`im`. From the second stage
    /// on, two neighbouring butterflies at once in SIMD2 lanes: each lane does a butterfly's
    /// operations in a scalar loop's order, so the results are the same numbers.
    private static func butterflies(
        _ re: UnsafeMutableBufferPointer<Double>, _ im: UnsafeMutableBufferPointer<Double>, cosine: [Double], sine: [Double]
    ) {
        let half = re.count
        let (re, im) = (re.baseAddress!, im.baseAddress!)
        cosine.withUnsafeBufferPointer { cosine in
            sine.withUnsafeBufferPointer { sine in
                let (cosine, sine) = (cosine.baseAddress!, sine.baseAddress!)
                // Span 1: one twiddle, e^0.
                let (wr, wi) = (cosine[1], sine[1])
                for top in stride(from: 0, to: half, by: 2) {
                    let bottom = top + 1
                    let tr = wr * re[bottom] - wi * im[bottom]
                    let ti = wr * im[bottom] + wi * re[bottom]
                    re[bottom] = re[top] - tr
                    im[bottom] = im[top] - ti
                    re[top] += tr
                    im[top] += ti
                }
                var span = 2
                while span < half {
                    var start = 0
                    while start < half {
                        var offset = 0
                        while offset < span {
                            let (top, bottom) = (start &+ offset, start &+ offset &+ span)
                            let (wr, wi) = (Pair.load(cosine + (span &+ offset)), Pair.load(sine + (span &+ offset)))
                            let (br, bi) = (Pair.load(re + bottom), Pair.load(im + bottom))
                            let tr = wr * br - wi * bi
                            let ti = wr * bi + wi * br
                            let (ar, ai) = (Pair.load(re + top), Pair.load(im + top))
                            (ar - tr).store(re + bottom)
                            (ai - ti).store(im + bottom)
                            (ar + tr).store(re + top)
                            (ai + ti).store(im + top)
                            offset &+= 2
                        }
                        start &+= 2 &* span
                    }
                    span *= 2
                }
            }
        }
    }
}

private typealias Pair = SIMD2<Double>

extension SIMD2<Double> {
    fileprivate static func load(_ pointer: UnsafePointer<Double>) -> Self {
        UnsafeRawPointer(pointer).loadUnaligned(as: Self.self)
    }

    fileprivate static func load(_ pointer: UnsafeMutablePointer<Double>) -> Self {
        UnsafeRawPointer(pointer).loadUnaligned(as: Self.self)
    }

    fileprivate func store(_ pointer: UnsafeMutablePointer<Double>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: self, as: Self.self)
    }
}
