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
    /// e^{−2πik/half} for the butterflies, k < half/2.
    private let butterflyCosine: [Double]
    private let butterflySine: [Double]
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
        let quarter = max(1, half / 2)
        butterflyCosine = (0..<quarter).map { Double.cos(2 * Double.pi * Double($0) / Double(length / 2)) }
        butterflySine = (0..<quarter).map { -Double.sin(2 * Double.pi * Double($0) / Double(length / 2)) }
        unpackCosine = (0...half).map { Double.cos(2 * Double.pi * Double($0) / Double(length)) }
        unpackSine = (0...half).map { -Double.sin(2 * Double.pi * Double($0) / Double(length)) }
        real = Array(repeating: 0, count: half)
        imaginary = Array(repeating: 0, count: half)
    }

    /// X_k of `samples` (exactly `length` of them) into `outputReal` and `outputImaginary`
    /// (k = 0…length/2).
    mutating func transform(
        _ samples: UnsafeBufferPointer<Double>, real outputReal: UnsafeMutableBufferPointer<Double>,
        imaginary outputImaginary: UnsafeMutableBufferPointer<Double>
    ) {
        precondition(samples.count == length && outputReal.count > half && outputImaginary.count > half)
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
                Self.butterflies(re, im, cosine: butterflyCosine, sine: butterflySine)
                unpackCosine.withUnsafeBufferPointer { unpackCosine in
                    unpackSine.withUnsafeBufferPointer { unpackSine in
                        // X_k = (Z_k + conj Z_{h−k})/2 + e^{−2πik/n}·(Z_k − conj Z_{h−k})/(2i)
                        for k in 0...half {
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

    /// In-place radix-2 decimation-in-time FFT of bit-reversed `re`/`im`.
    private static func butterflies(
        _ re: UnsafeMutableBufferPointer<Double>, _ im: UnsafeMutableBufferPointer<Double>, cosine: [Double], sine: [Double]
    ) {
        let half = re.count
        cosine.withUnsafeBufferPointer { cosine in
            sine.withUnsafeBufferPointer { sine in
                var span = 1
                while span < half {
                    let stride = half / (2 * span)
                    var start = 0
                    while start < half {
                        var twiddle = 0
                        for top in start..<(start + span) {
                            let bottom = top + span
                            let (wr, wi) = (cosine[twiddle], sine[twiddle])
                            twiddle += stride
                            let tr = wr * re[bottom] - wi * im[bottom]
                            let ti = wr * im[bottom] + wi * re[bottom]
                            re[bottom] = re[top] - tr
                            im[bottom] = im[top] - ti
                            re[top] += tr
                            im[top] += ti
                        }
                        start += 2 * span
                    }
                    span *= 2
                }
            }
        }
    }
}
