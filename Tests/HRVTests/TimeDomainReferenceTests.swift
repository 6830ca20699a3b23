import HRV
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
    /// `hrv_nonlinear` (SD1, SD2, SD1SD2), via `intervals_to_peaks(rr, sampling_rate=1000)`.
    @Test(arguments: [
        ("mitbih_nsr_5min", 101.451714184361, 0.1076435829527008, 78.93175074183976, 71.7371950627611, 114.95631178970295, 0.6240387669534372),
        ("mitbih_nsr_30min", 66.42214918698983, 0.1152339600956864, 65.87267215244694, 46.967552111105036, 117.98997983046145, 0.3980639049060964),
    ])
    func variabilityAndPoincareEqualNeuroKit(
        name: String, sdsd: Double, cvnn: Double, pnn20: Double, sd1: Double, sd2: Double, ratio: Double
    ) throws {
        var configuration = HRVPipeline.Configuration()
        configuration.correction = nil
        let metrics = try #require(process(try Fixture.intervals(name), configuration: configuration).pipeline.recording.metrics)
        #expect(relativeError(metrics.sdsd, sdsd) < 1e-9)
        #expect(relativeError(metrics.cvnn, cvnn) < 1e-9)
        #expect(relativeError(metrics.pnn20, pnn20) < 1e-9)
        #expect(relativeError(metrics.sd1, sd1) < 1e-9)
        #expect(relativeError(metrics.sd2, sd2) < 1e-9)
        #expect(relativeError(metrics.sd1sd2, ratio) < 1e-9)
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
