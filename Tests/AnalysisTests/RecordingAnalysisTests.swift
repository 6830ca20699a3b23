import Analysis
import Foundation
import HRV
import Platform
import Recordings
import SessionLog
import TestSupport
import Testing

/// Offline analysis as `analyze` runs it: a recorded RR file through the pipeline and the judge
/// into the summary, and a session file replayed through the live pipeline.
@Suite struct RecordingAnalysisTests {
    static func analyse(_ name: String, correcting: Bool = true) throws -> AnalysisSummary {
        let bytes = [UInt8](try Data(contentsOf: Fixture.url(name + ".txt")))
        let recording = try RRFileReader.read(bytes, source: name)
        var configuration = HRVPipeline.Configuration()
        if !correcting { configuration.correction = nil }
        var pipeline = HRVPipeline(configuration: configuration)
        var analysis = RecordingAnalysis(judge: BeatJudge(detector: StressDetector()))
        var output = FileStream.standardOutput
        analysis.run(recording.intervals, through: &pipeline, output: &output)
        return AnalysisSummary(source: name, layout: recording.layout, unit: recording.unit, pipeline: pipeline, analysis: analysis)
    }

    /// The summary's JSON carries NeuroKit2's numbers for the MIT-BIH record (the references in
    /// Fixtures, made by make_reference.py): to nine digits as recorded, and within 2 % after
    /// correction, where hrvmon's corrector and NeuroKit2's Kubios-style one differ in detail.
    @Test func theSummaryCarriesNeuroKitsNumbers() throws {
        let references = try Fixture.reference("mitbih_nsr_5min")
        for (correcting, reference, tolerance) in [(false, references.raw, 1e-9), (true, references.corrected, 0.02)] {
            let summary = try Self.analyse("mitbih_nsr_5min", correcting: correcting)
            let text = summary.rendered(as: .json)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let rmssd = try #require(json["rmssd_ms"] as? Double)
            let sdnn = try #require(json["sdnn_ms"] as? Double)
            #expect(abs(rmssd / reference.RMSSD - 1) < tolerance, "correcting: \(correcting)")
            #expect(abs(sdnn / reference.SDNN - 1) < tolerance, "correcting: \(correcting)")
            // Missed beats add to the timeline, extra beats leave it.
            let artifacts = try #require(json["artifacts"] as? [String: Int])
            #expect(json["beats"] as? Int == 337 + (artifacts["missed"] ?? 0) - (artifacts["extra"] ?? 0))
            #expect((json["unreliable"] as? [String])?.isEmpty == true, "5 minutes meets every minimum")
        }
        let summary = try Self.analyse("mitbih_nsr_5min")
        #expect(summary.rendered(as: .text).contains("RMSSD"))
        let csv = summary.rendered(as: .csv).split(separator: "\n")
        #expect(csv.count == 2 && csv[0].split(separator: ",").count == csv[1].split(separator: ",").count)
    }

    /// A resting record holds no stress: the judge stays quiet on it.
    @Test func restingRecordsGiveNoStress() throws {
        for name in ["mitbih_nsr_30min", "mitbih_nsr_30min_b"] {
            let summary = try Self.analyse(name)
            #expect(summary.episodes.filter { $0.kind == .stress }.isEmpty, "\(name)")
        }
    }

    /// The session file's beats, gap and exercise go through the live pipeline again: every beat,
    /// the exercise measured, the settings read from the header.
    @Test func aSessionFileIsReplayedStepByStep() throws {
        let fixture = SessionFixture(start: 1_763_719_800)
        let file = try SessionFileReader.read(Array(fixture.text.utf8), source: "fixture")
        let settings = try SessionReplay.settings(of: file, source: "fixture")
        #expect(settings.pipeline.rmssdWindow == 60)
        var beats = 0
        var gaps = 0
        let session = try SessionReplay.replay(file, settings: settings, baseline: nil) { event in
            if case .placed = event { beats += 1 }
            if case .gap = event { gaps += 1 }
        }
        #expect(session.packets == SessionFixture.beats)
        #expect(beats == SessionFixture.beats)
        #expect(gaps == 1)
        #expect(session.judge.effects.count == 1, "the exercise at 220–280 s is measured")
    }
}
