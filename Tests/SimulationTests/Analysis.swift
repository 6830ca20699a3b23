#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Simulation

/// Independent, deliberately simple HRV maths for checking the simulator.
enum Analysis {
    /// Beats of segment `segment` whose time is at least `skip` seconds into it.
    static func window(
        _ beats: [SimulatedBeat], _ truth: GroundTruth, segment: Int, skip: Double
    ) -> ArraySlice<SimulatedBeat> {
        let from = truth.spans[segment].start + skip
        let lo = beats.firstIndex { $0.segmentIndex == segment && $0.seconds >= from } ?? beats.endIndex
        let hi = beats.lastIndex { $0.segmentIndex == segment }.map { $0 + 1 } ?? lo
        return beats[lo..<max(lo, hi)]
    }

    /// Mean heart rate (bpm) from the normal RRs of a window.
    static func meanHR(_ w: ArraySlice<SimulatedBeat>) -> Double {
        let normals = w.filter { $0.label == .normal }
        let meanRR = normals.reduce(0.0) { $0 + $1.rrMilliseconds } / Double(normals.count)
        return 60_000 / meanRR
    }

    /// RMSSD (ms) from successive differences of consecutive normal RRs only.
    static func rmssd(_ w: ArraySlice<SimulatedBeat>) -> Double {
        var sum = 0.0
        var count = 0
        var i = w.startIndex + 1
        while i < w.endIndex {
            if w[i].label == .normal && w[i - 1].label == .normal {
                let d = w[i].rrMilliseconds - w[i - 1].rrMilliseconds
                sum += d * d
                count += 1
            }
            i += 1
        }
        return (sum / Double(count)).squareRoot()
    }

    /// The RR series of a window resampled at `rate` Hz by linear
    /// interpolation at beat times, with its mean removed.
    static func resampled(_ w: ArraySlice<SimulatedBeat>, rate: Double = 4) -> [Double] {
        let b = Array(w)
        var out: [Double] = []
        var j = 0
        var t = b[0].seconds
        while t < b[b.count - 1].seconds {
            while b[j + 1].seconds < t { j += 1 }
            let a = b[j], c = b[j + 1]
            let x = (t - a.seconds) / (c.seconds - a.seconds)
            out.append(a.rrMilliseconds * (1 - x) + c.rrMilliseconds * x)
            t += 1 / rate
        }
        let mean = out.reduce(0, +) / Double(out.count)
        return out.map { $0 - mean }
    }

    /// Power of `x` (sampled at `rate` Hz) at frequency `f` (Hz).
    static func power(_ x: [Double], rate: Double, at f: Double) -> Double {
        var re = 0.0, im = 0.0
        for (i, v) in x.enumerated() {
            let phase = 2 * Double.pi * f * Double(i) / rate
            re += v * cos(phase)
            im += v * sin(phase)
        }
        return re * re + im * im
    }

    /// Frequency (Hz) of the spectral peak of the RR series within `band`,
    /// scanned in 0.0025 Hz steps.
    static func peakFrequency(_ w: ArraySlice<SimulatedBeat>, band: ClosedRange<Double>) -> Double {
        let x = resampled(w)
        var best = -1.0, bestF = band.lowerBound
        var f = band.lowerBound
        while f <= band.upperBound {
            let p = power(x, rate: 4, at: f)
            if p > best { best = p; bestF = f }
            f += 0.0025
        }
        return bestF
    }

    /// Mean of the normal RRs (ms) among the `n` beats before index `i`.
    static func localNormalRR(_ beats: [SimulatedBeat], before i: Int, n: Int = 3) -> Double {
        var values: [Double] = []
        var j = i - 1
        while j >= 0 && values.count < n {
            if beats[j].label == .normal { values.append(beats[j].rrMilliseconds) }
            j -= 1
        }
        return values.reduce(0, +) / Double(values.count)
    }
}
