import HRV
import TestSupport
import Testing

/// Raw metrics against NeuroKit2 0.2.13 `hrv_time` on real recordings.
@Suite struct TimeDomainReferenceTests {
    static let recordings = [
        "mitbih_nsr_5min", "mitbih_nsr_30min", "real/biosignalsnotebooks_ecg_5_min_rest",
        "real/biosignalsnotebooks_ecg_2018_7_5_unlabelled", "real/biosignalsnotebooks_supine_1min_supine",
    ]

    @Test(arguments: recordings)
    func rawMetricsEqualNeuroKit(_ name: String) throws {
        let intervals = try Fixture.intervals(name)
        let reference = try Fixture.reference(name).raw
        var configuration = HRVPipeline.Configuration()
        configuration.correction = nil
        let totals = process(intervals, configuration: configuration).pipeline.recording
        let metrics = try #require(totals.statistics.metrics)
        #expect(metrics.beats == reference.beats)
        #expect(relativeError(metrics.meanNN, reference.MeanNN) < 1e-9)
        #expect(relativeError(metrics.sdnn, reference.SDNN) < 1e-9)
        #expect(relativeError(metrics.rmssd, reference.RMSSD) < 1e-9)
        #expect(relativeError(metrics.pnn50, reference.pNN50) < 1e-9)
    }

    /// NeuroKit2 0.2.13 on the series as given: `hrv_time` (SDSD, CVNN, pNN20) and
    /// `hrv_nonlinear` (SD1, SD2, SD1SD2), from `<name>.reference.variability.json`
    /// (make_variability_reference.py).
    @Test(arguments: ["mitbih_nsr_5min", "mitbih_nsr_30min"])
    func variabilityAndPoincareEqualNeuroKit(name: String) throws {
        let reference = try Fixture.variabilityReference(name)
        var configuration = HRVPipeline.Configuration()
        configuration.correction = nil
        let metrics = try #require(process(try Fixture.intervals(name), configuration: configuration).pipeline.recording.metrics)
        #expect(relativeError(metrics.sdsd, reference.SDSD) < 1e-9)
        #expect(relativeError(metrics.cvnn, reference.CVNN) < 1e-9)
        #expect(relativeError(metrics.pnn20, reference.pNN20) < 1e-9)
        #expect(relativeError(metrics.sd1, reference.SD1) < 1e-9)
        #expect(relativeError(metrics.sd2, reference.SD2) < 1e-9)
        #expect(relativeError(metrics.sd1sd2, reference.SD1SD2) < 1e-9)
    }

    @Test func mitbihDerivedValues() throws {
        // pNN50 over N (NeuroKit2), HR as 60000 / MeanNN; values from the same reference file.
        let intervals = try Fixture.intervals("mitbih_nsr_5min")
        let metrics = try #require(IntervalStatistics(intervals).metrics)
        #expect(abs(metrics.meanHR - 67.49494288632677) < 1e-9)
        #expect(abs(try #require(metrics.lnRMSSD) - log(101.30063401766522)) < 1e-12)
    }
}

#if canImport(Glibc)
import Glibc
#endif
