import Foundation
@testable import HRV
import Simulation
import Testing

/// The RR spectrum and the breathing rate read from it, on series whose breathing is known.
struct BreathingEstimateTests {
    /// Beats of a heart whose interval follows `rr(t)` (ms), for `seconds`.
    static func beats(seconds: Double, _ rr: (Double) -> Double) -> (times: [Double], intervals: [Double]) {
        var times: [Double] = [], intervals: [Double] = []
        var t = 0.0
        while t < seconds {
            let interval = rr(t)
            t += interval / 1000
            times.append(t)
            intervals.append(interval)
        }
        return (times, intervals)
    }

    /// The estimate the detector reads after these beats: the last full minute's.
    static func estimate(_ times: [Double], _ intervals: [Double]) -> BreathingEstimate? {
        var spectrum = BreathingSpectrum()
        for (time, interval) in zip(times, intervals) { _ = spectrum.append(time: time, milliseconds: interval) }
        return spectrum.estimate()
    }

    /// Against scipy.signal.periodogram (window "hann", detrend "linear", nfft 512 at 4 Hz) on the
    /// same linearly resampled tachogram: 569.73 ms² in 0.2–0.3 Hz for 40 ms at 0.25 Hz (the
    /// tachogram samples a 4 s wave only every ~0.9 s, so interpolation keeps 71 % of its
    /// 800 ms²), and 758.21 ms² in 0.05–0.15 Hz for 40 ms at 0.1 Hz.
    @Test(arguments: [(0.25, 0.2, 0.3, 569.73), (0.1, 0.05, 0.15, 758.21)])
    func sinusoidPowerMatchesScipy(frequency: Double, low: Double, high: Double, reference: Double) throws {
        let (times, intervals) = Self.beats(seconds: 120) { 900 + 40 * sin(2 * .pi * frequency * $0) }
        let spectrum = try #require(RRSpectrum(times: times, intervals: intervals, band: 0.0...0.5))
        #expect(abs(spectrum.power(from: low, to: high) - reference) < reference * 0.01)
        #expect(spectrum.power(from: 0.0, to: 0.5) - spectrum.power(from: low, to: high) < reference * 0.02)
        #expect(abs((spectrum.peak(from: 0.04, to: 0.5) ?? 0) - frequency) <= 1.0 / 128)
    }

    @Test(arguments: [4.5, 5.5, 6.0, 7.0])
    func pacedBreathingIsSlowAndConcentrated(rate: Double) throws {
        var noise = SeededGenerator(seed: UInt64(rate * 10))
        let (times, intervals) = Self.beats(seconds: 64) {
            950 + 70 * sin(2 * .pi * rate / 60 * $0) + Double.random(in: -8...8, using: &noise)
        }
        let estimate = try #require(Self.estimate(times, intervals))
        #expect(estimate.isSlow)
        #expect(abs(estimate.rate - rate) <= 0.5, "\(estimate)")
        #expect(estimate.concentration > 0.6)
    }

    /// Spontaneous breathing at rest: RSA at the breathing rate over Mayer waves (~0.1 Hz, their
    /// frequency wandering) and beat-to-beat noise. The rate is the RSA peak, not the Mayer wave.
    @Test(arguments: [10.0, 13.0, 16.0, 20.0])
    func spontaneousBreathingRateIsTheRespiratoryPeak(rate: Double) throws {
        var noise = SeededGenerator(seed: UInt64(rate * 10))
        var mayerPhase = 0.0, lastT = 0.0, mayerFrequency = 0.1
        let (times, intervals) = Self.beats(seconds: 64) { t in
            mayerFrequency = min(0.13, max(0.07, mayerFrequency + Double.random(in: -0.004...0.004, using: &noise)))
            mayerPhase += 2 * .pi * mayerFrequency * (t - lastT)
            lastT = t
            return 900 + 25 * sin(2 * .pi * rate / 60 * t) + 18 * sin(mayerPhase) + Double.random(in: -10...10, using: &noise)
        }
        let estimate = try #require(Self.estimate(times, intervals))
        #expect(!estimate.isSlow, "\(estimate)")
        #expect(abs(estimate.rate - rate) <= 1, "\(estimate)")
    }

    @Test func aFlatSeriesHasNoEstimate() {
        let (times, intervals) = Self.beats(seconds: 70) { _ in 1000 }
        #expect(RRSpectrum(times: times, intervals: intervals, band: BreathingEstimate.band).flatMap(BreathingEstimate.init(spectrum:)) == nil)
        #expect(RRSpectrum(times: [1], intervals: [1000], band: BreathingEstimate.band) == nil)
        #expect(Self.estimate(times, intervals) == nil)
    }

    /// The spectrum kept beat by beat equals the plain one on the same minute of the same 2 Hz
    /// grid, at every block of a long irregular series (RSA, Mayer waves, a drift, ectopic-like
    /// jumps), after a gap too.
    @Test func slidingSpectrumEqualsTheDirectOne() throws {
        var noise = SeededGenerator(seed: 0x2A37)
        var spectrum = BreathingSpectrum()
        var compared = 0
        for part in 0..<2 {
            let (offsetTimes, intervals) = Self.beats(seconds: 400) { t in
                let jump = Double.random(in: 0...1, using: &noise) < 0.01 ? Double.random(in: -250...250, using: &noise) : 0
                return 850 + 0.1 * t + 40 * sin(2 * .pi * 0.23 * t) + 25 * sin(2 * .pi * 0.09 * t)
                    + Double.random(in: -15...15, using: &noise) + jump
            }
            let times = offsetTimes.map { $0 + Double(part) * 1000 }
            if part > 0 { spectrum.removeAll() }
            let samples = try #require(RRSpectrum.resample(times: times, intervals: intervals, sampleRate: BreathingSpectrum.sampleRate))
            var blocks = 0
            for (time, interval) in zip(times, intervals) where spectrum.append(time: time, milliseconds: interval) {
                blocks += 1
                guard blocks >= BreathingSpectrum.blocksPerFrame else {
                    let early = spectrum.currentSpectrum()
                    #expect(early == nil)
                    continue
                }
                let end = blocks * BreathingSpectrum.blockLength
                let frame = Array(samples[(end - BreathingSpectrum.frameLength)..<end])
                let direct = try #require(RRSpectrum(
                    samples: frame, sampleRate: BreathingSpectrum.sampleRate, band: BreathingEstimate.band,
                    resolution: BreathingSpectrum.resolution))
                let current = spectrum.currentSpectrum()
                let sliding = try #require(current)
                #expect(sliding.frequencies == direct.frequencies)
                let largest = direct.density.max() ?? 0
                let worst = zip(sliding.density, direct.density).map { abs($0 - $1) }.max() ?? .infinity
                #expect(worst <= 1e-9 * largest, "block \(blocks): \(worst) against \(largest)")
                compared += 1
            }
        }
        #expect(compared > 60)
    }
}
