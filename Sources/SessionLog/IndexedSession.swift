import HRV
import SelfReport

/// What `sessions`, `history` and the days report need of one session file, kept in the session
/// index (docs/reference/session-index.md) so that they need not read the file again: its
/// overview (from the summary line, or from replaying a session that has none), and where its
/// beats and stress episodes lie on the clock.
public struct IndexedSession: Equatable, Sendable {
    /// What the entry was made from: it stands while the file still matches it.
    public struct Key: Equatable, Sendable {
        public var path: String
        public var size: Int
        /// st_mtim and st_ctim, nanoseconds.
        public var modified: Int64
        public var changed: Int64
        /// FNV-1a (64 bits, hex) of the file's first and last 64 KiB: tells a rewrite that kept the
        /// size and the modification time (`touch -d`, a restore) from the file that was read.
        public var fingerprint: String

        public init(path: String, size: Int, modified: Int64, changed: Int64, fingerprint: String) {
            self.path = path
            self.size = size
            self.modified = modified
            self.changed = changed
            self.fingerprint = fingerprint
        }

        /// The same file as far as the index can tell: path, size, mtime and fingerprint (the
        /// ctime only says when the fingerprint must be made again).
        public func sameContents(as other: Key) -> Bool {
            path == other.path && size == other.size && modified == other.modified && fingerprint == other.fingerprint
        }

        /// Bytes of each end the fingerprint is made of.
        public static let fingerprintedBytes = 1 << 16

        public static func fingerprint(_ bytes: [UInt8]) -> String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let digits = String(hash, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
    }

    /// A stretch of clock time, Unix seconds.
    public struct Span: Equatable, Sendable {
        public var start: Double
        public var end: Double

        public init(start: Double, end: Double) {
            self.start = start
            self.end = end
        }
    }

    /// A stress episode the session recorded: RR seconds as the file has them, and on the clock.
    public struct Episode: Equatable, Sendable {
        public var start: Double
        public var end: Double
        public var clock: Span
        public var peakLevel: Double?
        /// The newest answer to "Was that stress?"; nil: unanswered.
        public var answer: EpisodeAnswer?

        public init(start: Double, end: Double, clock: Span, peakLevel: Double?, answer: EpisodeAnswer?) {
            self.start = start
            self.end = end
            self.clock = clock
            self.peakLevel = peakLevel
            self.answer = answer
        }
    }

    public var key: Key
    public var id: String
    public var start: Double
    /// live or demo.
    public var source: String
    public var deviceName: String?
    public var deviceAddress: String?
    /// The overview `sessions` lists: the summary's, or the replay's when there is no summary.
    public var seconds: Double
    public var beats: Int
    public var heartRate: Double?
    public var rmssd: Double?
    public var sdnn: Double?
    public var stressSeconds: Double
    public var exercises: Int
    /// False when the session ended without its summary (a crash, kill -9, power loss, or it is
    /// still recording).
    public var ended: Bool
    public var tornLine: Int?
    public var notes: [SessionFile.Note]
    /// Clock time of the first beat's start and of the last beat (`SessionTimeline`).
    public var origin: Double
    public var end: Double
    /// The stretches with beats.
    public var monitored: [Span]
    /// Numbered from 1 in this order, as `hrvmon label SESSION:N` names them.
    public var stressEpisodes: [Episode]
    public var checkIns: [SessionFile.TimedCheckIn]
    public var breathing: [BreathingExercise]

    public init(key: Key, id: String, start: Double, source: String, deviceName: String?, deviceAddress: String?) {
        self.key = key
        self.id = id
        self.start = start
        self.source = source
        self.deviceName = deviceName
        self.deviceAddress = deviceAddress
        seconds = 0
        beats = 0
        stressSeconds = 0
        exercises = 0
        ended = false
        notes = []
        origin = start
        end = start
        monitored = []
        stressEpisodes = []
        checkIns = []
        breathing = []
    }

    /// The entry of a session file read with at least `.beats` detail; the overview's numbers are
    /// the summary's, and left for the caller to fill in (from a replay) when there is none.
    public init(key: Key, file: SessionFile) {
        let header = file.header
        self.init(key: key, id: header.id, start: header.start, source: header.source, deviceName: header.deviceName, deviceAddress: header.deviceAddress)
        notes = file.notes
        tornLine = file.tornLine
        if let summary = file.summary {
            ended = true
            seconds = summary.seconds
            beats = summary.beats
            heartRate = summary.heartRate
            rmssd = summary.rmssd
            sdnn = summary.sdnn
            stressSeconds = summary.stressSeconds
            exercises = summary.exercises
        }
        let timeline = SessionTimeline(file)
        origin = timeline.origin
        end = timeline.end
        monitored = timeline.monitored.map { Span(start: $0.start, end: $0.end) }
        stressEpisodes = file.stressEpisodes.enumerated().map { index, episode in
            Episode(
                start: episode.start, end: episode.end, clock: Span(start: timeline.clock(episode.start), end: timeline.clock(episode.end)),
                peakLevel: episode.peakLevel, answer: file.answer(toEpisode: index + 1))
        }
        checkIns = file.checkIns
        breathing = BreathingExercise.all(in: file, sessionLength: timeline.length)
    }

    /// The sensor as `sessions` names it.
    public var device: String { deviceName ?? deviceAddress ?? "unknown sensor" }

    /// Seconds of the stress episodes the file recorded (the summary's `stress_s` is the same for
    /// a session that ended; the days report counts these).
    public var recordedStressSeconds: Double { stressEpisodes.reduce(0) { $0 + ($1.end - $1.start) } }
}

extension StressPatterns.Session {
    /// The session of `start` and its stress episodes as `StressPatterns` takes them, with the
    /// state before each denied one by episode number from 1 (`statesBefore`, read from the file).
    public init(start: Double, utcOffset: Int, episodes: [IndexedSession.Episode], statesBefore: [Int: String]) {
        self.init(
            start: start, utcOffset: utcOffset,
            episodes: episodes.enumerated().map { index, episode in
                StressPatterns.Episode(start: episode.start, end: episode.end, answer: episode.answer, stateBefore: statesBefore[index + 1])
            })
    }
}
