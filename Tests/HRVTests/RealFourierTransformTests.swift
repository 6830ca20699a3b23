import Foundation
@testable import HRV
import Simulation
import Testing

/// The FFT against the transform's definition, summed directly.
struct RealFourierTransformTests {
    /// Full lengths, and the zero-padded segments Welch hands over (exactly half the length, as
    /// every segment of `analyze` is), shorter ones (odd counts too) and ones between half and
    /// whole: each of the first stages' three forms.
    @Test(arguments: [
        (4, 4), (8, 8), (64, 64), (1024, 1024),
        (4, 2), (8, 4), (64, 32), (1024, 512),
        (4, 1), (8, 3), (64, 29), (1024, 301),
        (8, 7), (64, 49), (1024, 777),
    ])
    func equalsTheDirectTransform(length: Int, count: Int) {
        var generator = SeededGenerator(seed: UInt64(length * 10_000 + count))
        let samples = (0..<count).map { index in
            800 + 30 * sin(Double(index) * 0.37) + Double.random(in: -20...20, using: &generator)
        }
        var transform = RealFourierTransform(length: length)
        var (real, imaginary) = ([Double](repeating: .nan, count: length / 2 + 1), [Double](repeating: .nan, count: length / 2 + 1))
        samples.withUnsafeBufferPointer { samples in
            real.withUnsafeMutableBufferPointer { real in
                imaginary.withUnsafeMutableBufferPointer { transform.transform(samples, real: real, imaginary: $0) }
            }
        }
        for k in 0...(length / 2) {
            var (re, im) = (0.0, 0.0)
            for (n, x) in samples.enumerated() {
                let angle = -2 * Double.pi * Double(k * n) / Double(length)
                re += x * cos(angle)
                im += x * sin(angle)
            }
            let scale = 1e-12 * Double(length) * 800
            #expect(abs(real[k] - re) <= scale && abs(imaginary[k] - im) <= scale, "k \(k): \(real[k]), \(imaginary[k]) against \(re), \(im)")
        }
    }
}
