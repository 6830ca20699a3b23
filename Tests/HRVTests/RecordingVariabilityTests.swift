import Foundation
import HRV
import Simulation
import TestSupport
import Testing

/// The research measures against `<name>.reference.frequency.json` (make_frequency_reference.py):
/// an independent numpy/scipy implementation of exactly the definitions (`spec`), and NeuroKit2
/// 0.2.13 where its method coincides (`neurokit`); frequency_reference_methods.md says where and why
/// they differ. The series are analysed as given (no correction), as the references were.
@Suite struct RecordingVariabilityTests {
    struct Reference: Decodable {
        struct Spec: Decodable {
            var frequency_recommended: Frequency
            var nonlinear: Nonlinear
            var baevsky: Baevsky
            var sampen_5min_segments: Segments?
        }
        struct Frequency: Decodable {
            var vlf_ms2: Double, lf_ms2: Double, hf_ms2: Double, lf_hf: Double, lf_nu: Double, hf_nu: Double
            var lf_peak_hz: Double, hf_peak_hz: Double, respiration_rate_bpm: Double
        }
        struct Nonlinear: Decodable {
            var dfa_alpha1: Double?, dfa_alpha2: Double?, sampen: Double?
        }
        struct Baevsky: Decodable {
            var baevsky_si: Double, baevsky_si_sqrt: Double
        }
        struct Segments: Decodable {
            var applies: Bool
            var segments_used: Int
            var mean: Double?
        }
        struct NeuroKit: Decodable {
            var blocks_spec_linear: Blocks?
        }
        struct Blocks: Decodable {
            var lf_ms2: Double?, hf_ms2: Double?, lf_hf: Double?, lf_nu: Double?
        }
        var spec: Spec
        var neurokit: NeuroKit?
    }

    static func reference(_ name: String) throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: Fixture.url(name + ".reference.frequency.json")))
    }

    /// The measures of `intervals` taken as they are, each beat at the running sum of intervals.
    static func measure(_ intervals: [RRInterval]) -> VariabilityMetrics {
        var variability = RecordingVariability()
        var time: Int64 = 0
        for interval in intervals {
            time += interval.microticks
            variability.add(Beat(interval: interval, time: time))
        }
        return variability.finish()
    }

    static let recordings = [
        "mitbih_nsr_5min", "mitbih_nsr_30min", "mitbih_nsr_30min_b", "real/biosignalsnotebooks_ecg_5_min_rest",
        "real/biosignalsnotebooks_ecg_2018_7_5_unlabelled", "real/biosignalsnotebooks_supine_1min_supine",
    ]

    /// Every measure equals the independent implementation of the same definition.
    @Test(arguments: recordings)
    func measuresEqualTheReferenceImplementation(_ name: String) throws {
        let reference = try Self.reference(name).spec
        let metrics = Self.measure(try Fixture.intervals(name))
        try Self.expectEqual(metrics, reference)
    }

    /// A simulated day (103,341 beats, `simulate --scenario day --seed 1`): the streamed spline,
    /// the detrended Welch sums and DFA's integer sums against the reference computed on the
    /// whole series at once, and the entropy as the mean of 287 five-minute segments.
    @Test func aDayEqualsTheReferenceImplementation() throws {
        let reference = try Self.reference("simulated_day_seed1").spec
        let beats = Simulator(scenario: try #require(Scenario.presets["day"]), seed: 1).run().beats
        let metrics = Self.measure(beats.map { RRInterval(ticks: $0.rrTicks) })
        try Self.expectEqual(metrics, reference)
        let segments = try #require(reference.sampen_5min_segments)
        #expect(segments.applies && metrics.sampleEntropySegments == segments.segments_used)
    }

    /// Where NeuroKit2's own building blocks compute the same thing (cubic spline at 4 Hz, linear
    /// detrend, Welch with 256-s segments: possible from 512 s of data), they agree closely; VLF is
    /// left out (NeuroKit2's grid has an extra sample after the last beat, which moves it by 3e-5).
    @Test(arguments: ["mitbih_nsr_30min", "mitbih_nsr_30min_b"])
    func frequencyDomainEqualsNeuroKit(_ name: String) throws {
        let neurokit = try #require(try Self.reference(name).neurokit?.blocks_spec_linear)
        let frequency = try #require(Self.measure(try Fixture.intervals(name)).frequency)
        #expect(relativeError(frequency.lf, try #require(neurokit.lf_ms2)) < 1e-7)
        #expect(relativeError(frequency.hf, try #require(neurokit.hf_ms2)) < 1e-7)
        #expect(relativeError(frequency.lfHF, try #require(neurokit.lf_hf)) < 1e-7)
        #expect(relativeError(frequency.lfNU, try #require(neurokit.lf_nu)) < 1e-7)
    }

    static func expectEqual(_ metrics: VariabilityMetrics, _ reference: Reference.Spec) throws {
        let expected = reference.frequency_recommended
        let frequency = try #require(metrics.frequency)
        let tolerance = 1e-9
        #expect(relativeError(frequency.vlf, expected.vlf_ms2) < tolerance, "VLF \(frequency.vlf) against \(expected.vlf_ms2)")
        #expect(relativeError(frequency.lf, expected.lf_ms2) < tolerance, "LF \(frequency.lf) against \(expected.lf_ms2)")
        #expect(relativeError(frequency.hf, expected.hf_ms2) < tolerance, "HF \(frequency.hf) against \(expected.hf_ms2)")
        #expect(relativeError(frequency.lfHF, expected.lf_hf) < tolerance)
        #expect(relativeError(frequency.lfNU, expected.lf_nu) < tolerance)
        #expect(relativeError(frequency.hfNU, expected.hf_nu) < tolerance)
        #expect(frequency.lfPeak == expected.lf_peak_hz)
        #expect(frequency.hfPeak == expected.hf_peak_hz)
        #expect(frequency.respirationRate == expected.respiration_rate_bpm)
        let nonlinear = reference.nonlinear
        if let alpha1 = nonlinear.dfa_alpha1 { #expect(abs(try #require(metrics.dfaAlpha1) - alpha1) < 1e-9, "α1 \(String(describing: metrics.dfaAlpha1)) against \(alpha1)") } else { #expect(metrics.dfaAlpha1 == nil) }
        if let alpha2 = nonlinear.dfa_alpha2 { #expect(abs(try #require(metrics.dfaAlpha2) - alpha2) < 1e-9) } else { #expect(metrics.dfaAlpha2 == nil) }
        if let entropy = nonlinear.sampen { #expect(abs(try #require(metrics.sampleEntropy) - entropy) < 1e-9) }
        #expect(relativeError(metrics.baevskyIndex, reference.baevsky.baevsky_si) < 1e-12)
        #expect(relativeError(metrics.baevskyIndexRoot, reference.baevsky.baevsky_si_sqrt) < 1e-12)
    }
}
