import HRV
import Platform
import SessionLog
import Settings

/// One session as the reports show it: what its file recorded, each moment placed on the clock.
/// Figures are the file's own (its summary line), never recomputed, so the report says what the
/// session said; a session that ended abruptly has no summary, and the report says that instead.
public struct SessionReport {
    public struct Note {
        /// 1, 2, … in the order taken: the label of its marker on the charts.
        public var number: Int
        /// RR seconds.
        public var seconds: Double
        public var text: String
    }

    public let file: SessionFile
    /// The settings the session ran with (its header), for the definitions the page states.
    public let settings: Settings
    public let timeline: SessionTimeline
    public let exercises: [BreathingExercise]
    public let notes: [Note]
    /// The strap's RR against its ECG (found by the analysis), for a session recorded with it.
    public let ecgCheck: ECGCheck?

    public init(file: SessionFile, ecgCheck: ECGCheck?) {
        self.file = file
        self.ecgCheck = ecgCheck
        settings = (try? SettingsFile.parse(file.header.configuration, source: file.header.id)) ?? Settings()
        let timeline = SessionTimeline(file)
        self.timeline = timeline
        exercises = BreathingExercise.all(in: file, sessionLength: timeline.length)
        notes = file.notes.enumerated().map { Note(number: $0.offset + 1, seconds: timeline.seconds(at: $0.element.time), text: $0.element.text) }
    }

    public var id: String { file.header.id }

    /// The baseline stress was judged against: what the session calibrated or the personal one
    /// it started with.
    public var baseline: Baseline? { file.summary?.baseline ?? file.header.baseline }

    public var stressEpisodes: [StressEpisode] { file.episodes.filter { $0.kind == .stress } }
    public var activityEpisodes: [StressEpisode] { file.episodes.filter { $0.kind == .activity } }
    public var stressSeconds: Double { file.episodes.stressSeconds }

    /// A stretch of recovery, paced breathing or posture change: the states that look like stress
    /// and are not, shown so the reader sees why no stress was flagged there.
    public struct StateSpan {
        public var state: StressState
        public var start: Double
        public var end: Double
    }

    /// Runs of consecutive metrics records in those states, in session seconds.
    public var stateSpans: [StateSpan] {
        var spans: [StateSpan] = []
        for record in file.metrics {
            guard let state = StressState(rawValue: record.state), [.recovery, .pacedBreathing, .posture].contains(state) else { continue }
            if let last = spans.last, last.state == state, record.sessionSeconds - last.end <= 10 {
                spans[spans.count - 1].end = record.sessionSeconds
            } else {
                spans.append(StateSpan(state: state, start: record.sessionSeconds, end: record.sessionSeconds))
            }
        }
        return spans.filter { $0.end > $0.start }
    }

    /// Beats on the corrected timeline changed by correction, of those usable (implausible
    /// values are left out, not corrected), as the pipeline counts them.
    public var corrections: (corrected: Int, usable: Int) {
        var corrected = 0, usable = 0
        for beat in file.placed where beat.kind != ArtifactClass.implausible.rawValue {
            usable += 1
            if beat.kind != "normal" { corrected += 1 }
        }
        return (corrected, usable)
    }

    /// Clock time of an RR-timeline position.
    public func clock(_ seconds: Double) -> Double { timeline.clock(seconds) }

    /// `10:40:12`.
    public func time(_ seconds: Double) -> String { WallClock.timeOfDay(clock(seconds)) }

    /// `10:40:12–10:46:18`.
    public func span(_ start: Double, _ end: Double) -> String { time(start) + "–" + time(end) }

    /// Why the link was lost before `gap`: the link change recorded there (disconnected, stalled…).
    public func cause(of gap: SessionTimeline.Gap) -> String? {
        file.links.first { $0.state != "connected" && timeline.seconds(at: $0.time) == gap.position }
            .map { $0.detail.isEmpty ? $0.state : $0.detail }
    }
}
