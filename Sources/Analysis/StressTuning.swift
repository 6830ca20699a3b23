import HRV
import Presentation
import SelfReport
import SessionLog
import Settings

/// What a changed `stress.onset_margin_sd` would have done to the stress episodes you answered
/// "Was that stress?" about: each labelled session replayed through the live pipeline
/// (`SessionReplay`) with its own settings and that one value changed, and each answered
/// episode looked for among the episodes the replay flags. Nothing is estimated: a value's
/// outcome is what the detector would have done with it.
///
/// The onset margin is the detector's threshold: the drop of ln RMSSD below the resting reference,
/// in SDs, that starts an episode. The other stress keys shape an episode (how long it must
/// hold, when it ends) or tell other states apart; `stress.calm_breathing_onset_margin_sd` is
/// never below it, so a margin above 2.5 raises both.
public struct StressTuning {
    public static let key = "stress.onset_margin_sd"
    /// Episodes answered yes or no before values are compared (docs/guide/checkins.md argues
    /// for ten: below it one answer moves a share by more than ten points). "Not sure" tells
    /// neither way and does not count.
    public static let minimumAnswered = 10
    /// The values compared besides the one in use: from the release margin's default up to
    /// where the calm-breathing margin starts to move too, and beyond.
    public static let candidates: [Double] = [1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0]

    /// A labelled session as read (`.beats` detail is enough) and the settings it ran with.
    public struct Session {
        public var file: SessionFile
        public var settings: Settings

        public init(file: SessionFile, source: String) throws {
            self.file = file
            settings = try SessionReplay.settings(of: file, source: source)
        }
    }

    /// One value's outcome on the answered episodes.
    public struct Outcome: Equatable, Sendable {
        public var value: Double
        public var confirmedKept = 0, confirmed = 0
        public var deniedDropped = 0, denied = 0
        public var unsureKept = 0, unsure = 0
        /// Episodes the replay flags where the recorded session had none.
        public var added = 0

        /// Right calls on the answered episodes: confirmed ones kept and denied ones dropped.
        public var agreement: Int { confirmedKept + deniedDropped }
    }

    public let sessions: [Session]

    public init(sessions: [Session]) {
        self.sessions = sessions
    }

    public var answers: [EpisodeAnswer: Int] {
        var counts: [EpisodeAnswer: Int] = [:]
        for session in sessions {
            for number in session.file.stressEpisodes.indices {
                if let answer = session.file.answer(toEpisode: number + 1) { counts[answer, default: 0] += 1 }
            }
        }
        return counts
    }

    /// Episodes answered yes or no.
    public var answered: Int { (answers[.yes] ?? 0) + (answers[.no] ?? 0) }

    /// The sessions replayed with `stress.onset_margin_sd = value`.
    public func outcome(onsetMargin value: Double) throws -> Outcome {
        var outcome = Outcome(value: value)
        for session in sessions {
            var settings = session.settings
            settings.stress.onsetMargin = value
            let replayed = try SessionReplay.replay(session.file, settings: settings, baseline: session.file.header.baseline)
                .judge.episodes.filter { $0.kind == .stress }
            let recorded = session.file.stressEpisodes
            func overlaps(_ episode: StressEpisode, _ among: [StressEpisode]) -> Bool {
                among.contains { $0.start <= episode.end && episode.start <= $0.end }
            }
            for (index, episode) in recorded.enumerated() {
                let kept = overlaps(episode, replayed)
                switch session.file.answer(toEpisode: index + 1) {
                case .yes?:
                    outcome.confirmed += 1
                    if kept { outcome.confirmedKept += 1 }
                case .no?:
                    outcome.denied += 1
                    if !kept { outcome.deniedDropped += 1 }
                case .unsure?:
                    outcome.unsure += 1
                    if kept { outcome.unsureKept += 1 }
                case nil: break
                }
            }
            outcome.added += replayed.filter { !overlaps($0, recorded) }.count
        }
        return outcome
    }

    /// The candidates and `current`, at least `lowest` (the release margin: the onset margin may
    /// not be below it), in order.
    public static func values(current: Double, lowest: Double) -> [Double] {
        Array(Set(candidates + [current]).filter { $0 >= lowest }).sorted()
    }

    /// The value with the most right calls, when it beats `current`'s; the nearest to `current` of equals.
    public static func suggestion(_ outcomes: [Outcome], current: Double) -> Outcome? {
        guard let now = outcomes.first(where: { $0.value == current }),
            let best = outcomes.max(by: { ($0.agreement, -abs($0.value - current)) < ($1.agreement, -abs($1.value - current)) }),
            best.agreement > now.agreement
        else { return nil }
        return best
    }

    /// The table of `outcomes`, `current` marked.
    public static func table(_ outcomes: [Outcome], current: Double) -> String {
        func share(_ part: Int, _ whole: Int) -> String { "\(part) of \(whole)" }
        return Formatting.columns(
            [["ONSET MARGIN (SD)", "CONFIRMED KEPT", "DENIED DROPPED", "NOT SURE KEPT", "NEW EPISODES"]]
                + outcomes.map { outcome in
                    [
                        SettingDefinition.format(outcome.value) + (outcome.value == current ? " (now)" : ""),
                        share(outcome.confirmedKept, outcome.confirmed), share(outcome.deniedDropped, outcome.denied),
                        share(outcome.unsureKept, outcome.unsure), "\(outcome.added)",
                    ]
                })
    }

    /// What is still missing before values are compared, in words; nil when there are enough answers.
    public var shortfall: String? {
        guard answered < Self.minimumAnswered else { return nil }
        let missing = Self.minimumAnswered - answered
        return "\(Formatting.count(answered, "stress episode")) answered yes or no so far; "
            + "\(Self.minimumAnswered) are needed before thresholds are compared: \(missing) more. "
            + "Answer with `hrvmon label EPISODE yes|no` (`hrvmon sessions --episodes` lists them) or when asked after an episode."
    }
}
