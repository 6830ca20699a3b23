import HRV
import HeartRateProtocol
import LivePipeline
import SelfReport

/// A session file read back (docs/reference/session-files.md): the header, the steps to replay it
/// through the live pipeline, and what the session recorded about itself.
public struct SessionFile: Sendable {
    /// 0001-01-01 to 9999-12-31 (UTC) in Unix seconds: what EDF, BIDS and a study's database date.
    public static let datable = -62_135_596_800.0..<253_402_300_800

    public struct Header: Sendable {
        /// The format version the file was written in (`SessionFileReader.newestVersion` or older).
        public var version: Int
        public var id: String
        /// Unix seconds.
        public var start: Double
        public var startLocal: String
        /// live or demo.
        public var source: String
        public var program: String
        public var deviceName: String?
        public var deviceAddress: String?
        /// The personal baseline the session was judged against; nil: it calibrated itself.
        public var baseline: Baseline?
        /// The effective configuration, as `key = value` lines of the configuration file.
        public var configuration: String
    }

    /// One thing the live pipeline was given, in the order it was given.
    public enum Step: Sendable {
        /// A notification that carried beats, with the time it arrived.
        case packet(HeartRateMeasurement, time: Double)
        /// A notification that was not a valid Heart Rate Measurement.
        case malformed([UInt8], time: Double)
        case gap(time: Double)
        case exercise(ExerciseMark)
        /// The desk's presence changed: the detector reads it too (`desk` lines).
        case desk(DeskChange, time: Double)
        /// A second of the strap's accelerometer: the detector reads it too.
        case motion(Motion)
    }

    public struct RawBeat: Sendable {
        public var time: Double
        public var sequence: Int
        public var ticks: UInt16
        public var heartRate: UInt16
        /// detected, not_detected or unsupported.
        public var contact: String
    }

    /// A beat of the corrected timeline.
    public struct PlacedBeat: Sendable {
        /// Seconds of RR since the first beat.
        public var seconds: Double
        public var milliseconds: Double
        /// normal, or the artifact class.
        public var kind: String
        /// No successive difference is formed with the beat before (`after_gap`).
        public var followsGap = false
    }

    public struct Metrics: Sendable {
        public var time: Double
        public var sessionSeconds: Double
        public var heartRate: Double?
        public var rmssd: Double?
        public var lnRMSSD: Double?
        public var sdnn: Double?
        public var state: String
        public var level: Double?
        public var calibrating: Bool
        /// Where the breathing rate was read (`chest`, `rr`); nil in files from before, or without a rate.
        public var breathingSource: String?
    }

    public struct Note: Equatable, Sendable {
        public var time: Double
        public var text: String
    }

    public struct TimedCheckIn: Equatable, Sendable {
        public var time: Double
        public var checkIn: CheckIn
    }

    public struct Suggestion: Sendable {
        public var time: Double
        public var sessionSeconds: Double
        public var reason: String
        public var pattern: String
    }

    /// The measured effect of a breathing exercise: RMSSD and heart rate in the minute before,
    /// during it, and in the two minutes after.
    public struct Effect: Equatable, Sendable {
        public struct Span: Equatable, Sendable {
            public var rmssd: Double?
            public var heartRate: Double?
        }

        /// RR seconds, as the exercise marks.
        public var start: Double
        public var before: Span
        public var during: Span
        public var after: Span
        /// The exercise's mean coherence score (0–1); nil when it had none (shorter than the
        /// 64-s window, or recorded before hrvmon measured it).
        public var coherence: Double?
    }

    /// A second of the strap's accelerometer (a `motion` line).
    public struct Motion: Sendable {
        public var time: Double
        public var second: MotionSecond
    }

    public struct LinkChange: Sendable {
        public var time: Double
        public var state: String
        public var detail: String
    }

    /// The last line a session writes when it ends normally.
    public struct Summary: Sendable {
        public var time: Double
        public var seconds: Double
        public var beats: Int
        public var heartRate: Double?
        public var rmssd: Double?
        public var sdnn: Double?
        public var stressSeconds: Double
        public var exercises: Int
        public var baseline: Baseline?
    }

    public var header: Header
    public var steps: [Step] = []
    public var beats: [RawBeat] = []
    public var placed: [PlacedBeat] = []
    public var metrics: [Metrics] = []
    public var episodes: [StressEpisode] = []
    public var suggestions: [Suggestion] = []
    public var exercises: [ExerciseMark] = []
    public var effects: [Effect] = []
    public var notes: [Note] = []
    public var checkIns: [TimedCheckIn] = []
    /// Answers to "Was that stress?", in the order given: a later answer about an episode
    /// replaces an earlier one (`answer(toEpisode:)`).
    public var labels: [EpisodeLabel] = []
    public var links: [LinkChange] = []
    /// The steps of a resonance assessment run in the session (`hrvmon resonance`), and its end.
    public var resonanceSteps: [ResonanceStepMark] = []
    /// The accelerometer's seconds, when the strap had one (Polar Measurement Data).
    public var motion: [Motion] = []
    /// The strap's ECG, when it was recorded (`--ecg`): a run of samples per `ecg` line, in the
    /// order written (oldest first; runs that follow on from each other are not joined).
    public var ecg: [ECGSamples] = []
    public var summary: Summary?
    /// The line that was cut short by a crash or power loss, if the file ends with one.
    public var tornLine: Int?
    /// Lines of types this reader does not know (written by a newer hrvmon), skipped.
    public var unknownLines = 0

    /// The session's stress episodes (the activity ones are not asked about), numbered from 1 in `EpisodeName`s.
    public var stressEpisodes: [StressEpisode] { episodes.filter { $0.kind == .stress } }

    /// The newest answer about stress episode `number` (from 1); nil when unanswered.
    public func answer(toEpisode number: Int) -> EpisodeAnswer? {
        labels.last { $0.episode == number }?.answer
    }
}

extension SessionFile {
    /// A session known only by its beats as received (a study's server holds no more): a header
    /// with the start and its UTC offset, no configuration, no pipeline lines, no events.
    public init(id: String, start: Double, startLocal: String, program: String, beats: [RawBeat]) {
        self.init(header: Header(
            version: SessionFileReader.newestVersion, id: id, start: start, startLocal: startLocal, source: "study", program: program, deviceName: nil, deviceAddress: nil,
            baseline: nil, configuration: ""))
        self.beats = beats
    }
}

extension SessionFile.RawBeat {
    public init(time: Double, sequence: Int, ticks: UInt16) {
        self.init(time: time, sequence: sequence, ticks: ticks, heartRate: 0, contact: "unsupported")
    }
}
