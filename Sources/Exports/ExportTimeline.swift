import HRV
import SessionLog

/// A session on the one time axis every research export uses (docs/research.md, "Research exports"):
/// seconds from `zero`, the whole second of Unix time at or before the start of the first
/// interval. Within a stretch of beats between gaps, beats are placed by their RR (the strap's
/// clock, exact to 1/1024 s); each stretch starts where the wall clock puts the start of its
/// first interval (arrival less the RR), so a link loss keeps its length on the axis.
public struct ExportTimeline: Sendable {
    /// A beat as the strap sent it.
    public struct RawBeat: Sendable {
        /// The R peak that ends the interval, seconds from `zero`.
        public var onset: Double
        public var beat: SessionFile.RawBeat
        /// The first beat after a gap: its interval does not follow the previous beat.
        public var followsGap: Bool

        public var interval: RRInterval { RRInterval(ticks: beat.ticks) }
    }

    /// A beat of the corrected timeline (the session file's `nn` line).
    public struct CorrectedBeat: Sendable {
        public var onset: Double
        public var beat: SessionFile.PlacedBeat

        /// 0 normal, then the artifact classes in `ArtifactClass.allCases` order (1 ectopic … 5 implausible).
        public var classCode: Int { ArtifactClass.allCases.firstIndex { $0.rawValue == beat.kind }.map { $0 + 1 } ?? 0 }
    }

    /// Something that happened over a span (or at an instant) of the session.
    public struct Event: Sendable {
        public enum Kind: String, CaseIterable, Sendable {
            case gap, note, stress, activity, exercise, suggestion
        }

        public var kind: Kind
        public var onset: Double
        public var duration: Double
        /// What it was, in words (a note's text, an exercise's pattern, a suggestion's reason).
        public var text: String
    }

    public let header: SessionFile.Header
    /// Unix seconds, whole.
    public let zero: Double
    /// The local date and time of `zero`, at the session's UTC offset.
    public let localZero: LocalTime
    public private(set) var raw: [RawBeat] = []
    public private(set) var corrected: [CorrectedBeat] = []
    public private(set) var events: [Event] = []
    /// The strap's ECG as the session file keeps it (`--ecg`; `ECGGrid` puts it on this axis).
    public let ecg: [ECGSamples]
    /// Where each stretch between gaps starts: its position in RR seconds (the session file's
    /// `s`, `start_s`, `session_s`) and on this axis.
    private var stretches: [(rrSeconds: Double, onset: Double)] = []

    /// Why a session cannot be exported.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case noBeats
        /// The first beat's time (Unix seconds) is no date of years 1 to 9999: a damaged file.
        case notADate(Double)
        /// Its beats and events span more than `longest` seconds: a clock jumped (a damaged
        /// file), or a sampled grid over it would be too large.
        case tooLong(seconds: Double)

        public var description: String {
            switch self {
            case .noBeats: "the session has no beats to export"
            case .notADate(let time): "the first beat's time \(time) is not a date; is a timestamp damaged?"
            case .tooLong(let seconds):
                "the session's beats and events span \(ExportNumber.text(seconds, places: 0)) s, more than the 31 days an export covers; is a timestamp damaged?"
            }
        }
    }

    /// 31 days: at 4 Hz, 10.7 million samples.
    public static let longest = 31 * 86_400.0

    /// The codes of `CorrectedBeat.classCode`, by name.
    public static let classNames = ["normal"] + ArtifactClass.allCases.map(\.rawValue)

    public init(_ file: SessionFile) throws(Refusal) {
        guard let first = file.beats.first else { throw .noBeats }
        header = file.header
        ecg = file.ecg
        zero = (first.time - RRInterval(ticks: first.ticks).seconds).rounded(.down)
        guard SessionFile.datable.contains(zero) else { throw .notADate(zero) }
        localZero = LocalTime(unix: zero, offsetSeconds: LocalTime.offsetSeconds(of: file.header.startLocal))
        let afterGap = Self.beatsAfterGaps(file.steps)
        var ticks = 0
        var stretchTicks = 0
        var stretchOnset = 0.0
        var previousOnset = -Double.infinity
        for (index, beat) in file.beats.enumerated() {
            let followsGap = afterGap.contains(index)
            if index == 0 || followsGap {
                // A clock that put this stretch before the previous one's last beat is not believed.
                stretchOnset = max(beat.time - RRInterval(ticks: beat.ticks).seconds - zero, previousOnset)
                stretchTicks = ticks
                stretches.append((Double(ticks) / 1024, stretchOnset))
                if index > 0 { events.append(Event(kind: .gap, onset: previousOnset, duration: stretchOnset - previousOnset, text: "")) }
            }
            ticks += Int(beat.ticks)
            previousOnset = stretchOnset + Double(ticks - stretchTicks) / 1024
            raw.append(RawBeat(onset: previousOnset, beat: beat, followsGap: followsGap && index > 0))
        }
        corrected = file.placed.map { CorrectedBeat(onset: onset(rrSeconds: $0.seconds), beat: $0) }
        end = previousOnset
        addEvents(of: file)
        end = events.reduce(max(end, corrected.last?.onset ?? 0)) { max($0, $1.onset + $1.duration) }
        guard end <= Self.longest else { throw .tooLong(seconds: end) }
    }

    /// The last beat, or the end of the last event after it: how long the export is.
    public private(set) var end = 0.0

    /// A position in RR seconds on this axis: in the stretch it falls in (a beat at a stretch's
    /// very end belongs to it).
    public func onset(rrSeconds seconds: Double) -> Double {
        let stretch = stretches.last { $0.rrSeconds < seconds } ?? stretches[0]
        return stretch.onset + seconds - stretch.rrSeconds
    }

    /// The indices of the beats that follow a gap line, from the replay steps (a packet's beats
    /// are consecutive in `beats`).
    private static func beatsAfterGaps(_ steps: [SessionFile.Step]) -> Set<Int> {
        var indices: Set<Int> = []
        var next = 0
        var gapPending = false
        for step in steps {
            switch step {
            case .packet(let measurement, _):
                if gapPending { indices.insert(next) }
                gapPending = false
                next += measurement.rrIntervals.count
            case .gap:
                gapPending = true
            case .malformed, .exercise, .desk, .motion:
                break
            }
        }
        return indices
    }

    private mutating func addEvents(of file: SessionFile) {
        for note in file.notes {
            events.append(Event(kind: .note, onset: note.time - zero, duration: 0, text: note.text))
        }
        for episode in file.episodes {
            let start = onset(rrSeconds: episode.start)
            let peak = episode.peakLevel.map { "peak level \(Int($0.rounded()))" } ?? ""
            events.append(Event(
                kind: episode.kind == .stress ? .stress : .activity, onset: start, duration: max(0, onset(rrSeconds: episode.end) - start),
                text: peak))
        }
        var started: ExerciseMark?
        for mark in file.exercises + [nil] {
            if let begun = started, mark == nil || mark?.kind == .stopped || mark?.kind == .started {
                // Stopped, superseded, or still running at the end of the session.
                let start = onset(rrSeconds: begun.sessionSeconds)
                let stop = mark.map { onset(rrSeconds: $0.sessionSeconds) } ?? end
                events.append(Event(kind: .exercise, onset: start, duration: max(0, stop - start), text: begun.pattern))
                started = nil
            }
            if mark?.kind == .started { started = mark }
        }
        for suggestion in file.suggestions {
            events.append(Event(
                kind: .suggestion, onset: onset(rrSeconds: suggestion.sessionSeconds), duration: 0,
                text: suggestion.pattern + ": " + suggestion.reason))
        }
        // Nothing before time zero (a damaged `start_s`): EDF+ and BIDS onsets are not negative.
        for index in events.indices { events[index].onset = max(0, events[index].onset) }
        events.sort { $0.onset < $1.onset }
    }
}
