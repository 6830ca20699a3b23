import Exports
import HRV
import HeartRateProtocol
import PolarMeasurementData
import Recordings
import SessionLog
import Settings

/// What must hold for any bytes given to a parser of outside input: they are read, and what was
/// read holds together, or they are refused with an error. A trap inside a parser is the other
/// failure, which the fuzzer (or the test process) reports as a crash.
/// The libFuzzer entry points in Fuzz/ and the corpus replay in Tests/FuzzCorpusTests run these.
public enum FuzzCheck: String, CaseIterable, Sendable {
    case heartRateMeasurement = "HeartRateMeasurement"
    case rrFile = "RRFile"
    case sessionFile = "SessionFile"
    case settingsFile = "SettingsFile"
    case polarMeasurementData = "PolarMeasurementData"

    public enum Outcome: Equatable, Sendable {
        case accepted
        case refused
        /// Read, but what was read breaks the check's rule: the description says how.
        case violated(String)
    }

    /// Its name is the fuzz target's and the corpus directory's.
    public var target: String { rawValue }

    public func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        switch self {
        case .heartRateMeasurement: Self.heartRateMeasurement(bytes)
        case .rrFile: Self.rrFile(Array(bytes))
        case .sessionFile: Self.sessionFile(Array(bytes))
        case .settingsFile: Self.settingsFile(bytes)
        case .polarMeasurementData: Self.polarMeasurementData(Array(bytes))
        }
    }

    /// What parses as 0x2A37 encodes back to bytes that parse to the same heart rate and RR.
    private static func heartRateMeasurement(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let measurement = try? HeartRateMeasurement(parsing: bytes) else { return .refused }
        let again = try? HeartRateMeasurement(parsing: measurement.encoded(uint16HeartRate: measurement.heartRate > 255))
        guard again?.heartRate == measurement.heartRate, again?.rrIntervals == measurement.rrIntervals else {
            return .violated("round trip changed \(Array(bytes))")
        }
        return .accepted
    }

    /// An RR file in each unit: what reads goes through the whole HRV pipeline, every beat counted.
    private static func rrFile(_ bytes: [UInt8]) -> Outcome {
        var outcome = Outcome.refused
        for unit in [RRUnit.ms, .s, .ticks] {
            guard let recording = try? RRFileReader.read(bytes, source: "fuzz", unit: unit) else { continue }
            var pipeline = HRVPipeline()
            for interval in recording.intervals { pipeline.append(interval) { _ in } }
            pipeline.finish { _ in }
            guard pipeline.recording.rawBeats == recording.intervals.count else {
                return .violated("\(unit): \(recording.intervals.count) intervals read, \(pipeline.recording.rawBeats) beats in the pipeline")
            }
            outcome = .accepted
        }
        return outcome
    }

    /// A session file, read as an overview (as listings do) and in full: the beats are exactly
    /// the RR intervals of the notifications it replays; read in place and in pieces, it reads as
    /// parsed whole.
    private static func sessionFile(_ bytes: [UInt8]) -> Outcome {
        if let difference = sessionReadingDifference(bytes) { return .violated(difference) }
        guard let file = try? SessionFileReader.read(bytes, source: "fuzz") else { return .refused }
        let replayed = file.steps.reduce(0) { count, step in
            if case .packet(let measurement, _) = step { return count + measurement.rrIntervals.count }
            return count
        }
        guard file.beats.count == replayed else { return .violated("\(file.beats.count) beats but \(replayed) RR intervals in its notifications") }
        return researchExports(file)
    }

    /// What reads exports to every research format: every beat on the time axis, in order (the
    /// EDF+ and BIDS grids are built for sessions up to an hour, to keep the fuzzer fast).
    private static func researchExports(_ file: SessionFile) -> Outcome {
        guard let timeline = try? ExportTimeline(file) else { return .accepted }
        guard timeline.raw.count == file.beats.count, timeline.corrected.count == file.placed.count,
              zip(timeline.raw, timeline.raw.dropFirst()).allSatisfy({ $0.onset <= $1.onset })
        else { return .violated("the export's time axis lost a beat or runs backwards") }
        _ = KubiosText.encode(timeline, corrected: false)
        if timeline.end <= 3600 {
            _ = EDFPlus.encode(timeline)
            _ = BIDSPhysio.files(timeline, subject: "01", task: "fuzz")
        }
        return .accepted
    }

    /// A configuration file: accepted numbers lie in their documented ranges.
    private static func settingsFile(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        guard let settings = try? SettingsFile.parse(String(decoding: bytes, as: UTF8.self), source: "fuzz") else { return .refused }
        for definition in SettingDefinition.all {
            if case .number(let range, let path) = definition.kind, !range.contains(settings[keyPath: path]) {
                return .violated("\(definition.key) = \(settings[keyPath: path]) is outside \(range)")
            }
        }
        return .accepted
    }

    /// Bytes from Polar's Measurement Data service, read as every kind of PMD message the strap
    /// sends: a data frame's samples each get a time, in order, the last the frame's own; a
    /// get-settings reply's choice is among what it offered; a feature read offers types 0-255.
    private static func polarMeasurementData(_ bytes: [UInt8]) -> Outcome {
        var outcome = Outcome.refused
        if let frame = try? PMDFrame(parsing: bytes) {
            var clock = PMDSampleClock()
            for nominalRate in [0.0, 50, 130] {
                let times = clock.sampleTimes(of: frame, nominalRate: nominalRate)
                guard times.count == frame.samples.count, times.last == frame.timestamp, zip(times, times.dropFirst()).allSatisfy(<=) else {
                    return .violated("sample times \(times) for \(frame.samples.count) samples ending at \(frame.timestamp)")
                }
            }
            outcome = .accepted
        }
        if case .reply(let reply)? = try? PMDControlPointMessage(parsing: bytes), let settings = try? PMDAvailableSettings(parsing: reply.parameters) {
            if let chosen = settings.choosing(sampleRate: 50, range: 8),
               !settings.sampleRates.contains(chosen.sampleRate) || !settings.resolutions.contains(chosen.resolution)
            {
                return .violated("chose \(chosen) from \(settings)")
            }
            outcome = .accepted
        }
        if (try? PMDFeatures(parsing: bytes)) != nil { outcome = .accepted }
        return outcome
    }
}
