import HRV
import Testing

/// Raw metrics against NeuroKit2 0.2.13 `hrv_time` on real recordings.
@Suite struct TimeDomainReferenceTests {
    static let recordings = ["mitbih_nsr_5min", "mitbih_nsr_30min"]

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
