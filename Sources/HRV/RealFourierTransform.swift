import RealModule

/// The discrete Fourier transform X_k = Σ x[m]·e^{−2πikm/n} of real samples, of a power-of-two
/// length, for k = 0…n/2 (the rest mirror them). The n real samples are packed as
/// n/2 complex ones, transformed by an iterative radix-2 FFT, and unpacked (the standard
/// real-input method), so a transform costs O(n log n) with the tables and the scratch space made
/// once: no allocation per transform.
///
/// The butterflies are those of the plain radix-2 loop, each with its operations in the same
/// order, so the numbers are the same; only the passes over memory are fewer: the first two
/// stages are done as the samples are gathered into bit-reversed order, and the others two at a
/// time on four values held in registers, two neighbouring butterflies at once in SIMD2 lanes.
/// Samples zero-padded to the length (Welch's segments, half the length) skip the first stage's
/// multiplications by zero, whose results are known.
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

    /// X_k of `samples` zero-padded to `length` (at most `length` of them) into `outputReal` and
    /// `outputImaginary`, for k below their count (at most length/2 + 1): a caller that needs the
    /// low frequencies only does not pay for unpacking the rest.
    mutating func transform(
        _ samples: UnsafeBufferPointer<Double>, real outputReal: UnsafeMutableBufferPointer<Double>,
        imaginary outputImaginary: UnsafeMutableBufferPointer<Double>
    ) {
        let outputs = outputReal.count
        precondition(samples.count <= length && outputs == outputImaginary.count && outputs > 0 && outputs <= half + 1)
        let half = self.half
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                let (re, im) = (re.baseAddress!, im.baseAddress!)
                stageCosine.withUnsafeBufferPointer { cosine in
                    stageSine.withUnsafeBufferPointer { sine in
                        let (cosine, sine) = (cosine.baseAddress!, sine.baseAddress!)
                        reversed.withUnsafeBufferPointer { reversed in
                            // Specialised (inlined with constant flags) for a segment exactly
                            // half the length, shorter ones and longer ones.
                            if samples.count == half {
                                Self.firstStages(samples, into: re, im, half: half, reversed: reversed, cosine: cosine, sine: sine, secondHalfIsZero: true, isHalf: true)
                            } else if samples.count < half {
                                Self.firstStages(samples, into: re, im, half: half, reversed: reversed, cosine: cosine, sine: sine, secondHalfIsZero: true, isHalf: false)
                            } else {
                                Self.firstStages(samples, into: re, im, half: half, reversed: reversed, cosine: cosine, sine: sine, secondHalfIsZero: false, isHalf: false)
                            }
                        }
                        var span = 4
                        while 2 * span < half {
                            Self.twoStages(re, im, half: half, span: span, cosine: cosine, sine: sine)
                            span *= 4
                        }
                        if span < half { Self.stage(re, im, half: half, span: span, cosine: cosine, sine: sine) }
                    }
                }
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

    /// z[j] = x[2j] + i·x[2j+1] in bit-reversed order, through the stages of span 1 and 2, four
    /// outputs at a time. Position p holds z[reversed[p]]: of a group p…p+3, p + 1 holds the one
    /// half/2 further on (zero when `secondHalfIsZero`), p + 2 the one half/4 further, p + 3 both.
    /// `isHalf`: exactly half the length of samples, read without checking.
    @inline(__always)
    private static func firstStages(
        _ samples: UnsafeBufferPointer<Double>, into re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>,
        half: Int, reversed: UnsafeBufferPointer<Int>, cosine: UnsafePointer<Double>, sine: UnsafePointer<Double>,
        secondHalfIsZero: Bool, isHalf: Bool
    ) {
        func z(_ j: Int) -> (re: Double, im: Double) {
            if isHalf { return (samples[2 &* j], samples[2 &* j &+ 1]) }
            return (2 * j < samples.count ? samples[2 * j] : 0, 2 * j + 1 < samples.count ? samples[2 * j + 1] : 0)
        }
        // Span 1: one twiddle, e^0. Its butterfly of a and b gives a + w·b and a − w·b; with b
        // zero, w·b is +0, so a + 0 and a.
        let (wr, wi) = (cosine[1], sine[1])
        func spanOne(_ a: (re: Double, im: Double), _ j: Int) -> Values {
            if secondHalfIsZero { return Values(Pair(a.re, a.re) + Pair(0, -0.0), Pair(a.im, a.im) + Pair(0, -0.0)) }
            let b = z(j)
            let tr = wr * b.re - wi * b.im
            let ti = wr * b.im + wi * b.re
            return Values(Pair(a.re + tr, a.re - tr), Pair(a.im + ti, a.im - ti))
        }
        guard half >= 4 else {
            spanOne(z(0), 1).store(re, im, at: 0)
            return
        }
        // Span 2: the twiddles of its two butterflies, in the lanes.
        let w = Values(cosine, sine, at: 2)
        for group in stride(from: 0, to: half, by: 4) {
            let j = reversed[group]
            var a = spanOne(z(j), j + half / 2)
            var b = spanOne(z(j + half / 4), j + half / 4 + half / 2)
            Values.butterfly(&a, &b, w)
            a.store(re, im, at: group)
            b.store(re, im, at: group + 2)
        }
    }

    /// The stages of span s and 2s on each four values s apart: (0, s) and (2s, 3s) with the first
    /// stage's twiddle, then (0, 2s) and (s, 3s) with the second's, two neighbouring groups in
    /// the lanes.
    private static func twoStages(
        _ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>, half: Int, span s: Int,
        cosine: UnsafePointer<Double>, sine: UnsafePointer<Double>
    ) {
        forEachPairOfGroups(half: half, block: 4 &* s, span: s) { i0, offset in
            var (a0, a1) = (Values(re, im, at: i0), Values(re, im, at: i0 &+ s))
            var (a2, a3) = (Values(re, im, at: i0 &+ 2 &* s), Values(re, im, at: i0 &+ 3 &* s))
            let w = Values(cosine, sine, at: s &+ offset)
            Values.butterfly(&a0, &a1, w)
            Values.butterfly(&a2, &a3, w)
            Values.butterfly(&a0, &a2, Values(cosine, sine, at: 2 &* s &+ offset))
            Values.butterfly(&a1, &a3, Values(cosine, sine, at: 3 &* s &+ offset))
            a0.store(re, im, at: i0)
            a1.store(re, im, at: i0 &+ s)
            a2.store(re, im, at: i0 &+ 2 &* s)
            a3.store(re, im, at: i0 &+ 3 &* s)
        }
    }

    /// One stage, of span s ≥ 2 (when the count of stages after the first two is odd).
    private static func stage(
        _ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>, half: Int, span s: Int,
        cosine: UnsafePointer<Double>, sine: UnsafePointer<Double>
    ) {
        forEachPairOfGroups(half: half, block: 2 &* s, span: s) { top, offset in
            var (a, b) = (Values(re, im, at: top), Values(re, im, at: top &+ s))
            Values.butterfly(&a, &b, Values(cosine, sine, at: s &+ offset))
            a.store(re, im, at: top)
            b.store(re, im, at: top &+ s)
        }
    }

    /// `body(first index, offset)` for each two neighbouring groups: offsets 0, 2, … below
    /// `span` in each block of `block` values.
    @inline(__always)
    private static func forEachPairOfGroups(half: Int, block: Int, span: Int, _ body: (Int, Int) -> Void) {
        var start = 0
        while start < half {
            var offset = 0
            while offset < span {
                body(start &+ offset, offset)
                offset &+= 2
            }
            start &+= block
        }
    }
}

/// Two neighbouring complex values (or twiddles), their real and imaginary parts in SIMD2 lanes.
private struct Values {
    var re: Pair
    var im: Pair

    init(_ re: Pair, _ im: Pair) {
        (self.re, self.im) = (re, im)
    }

    init(_ re: UnsafePointer<Double>, _ im: UnsafePointer<Double>, at index: Int) {
        (self.re, self.im) = (Pair.load(re + index), Pair.load(im + index))
    }

    func store(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>, at index: Int) {
        self.re.store(re + index)
        self.im.store(im + index)
    }

    /// a, b ← a + w·b, a − w·b, the plain loop's operations in its order.
    @inline(__always)
    static func butterfly(_ a: inout Values, _ b: inout Values, _ w: Values) {
        let tr = w.re * b.re - w.im * b.im
        let ti = w.re * b.im + w.im * b.re
        b = Values(a.re - tr, a.im - ti)
        a = Values(a.re + tr, a.im + ti)
    }
}

private typealias Pair = SIMD2<Double>
