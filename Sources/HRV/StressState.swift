/// What the body is doing in the latest window, after Firstbeat/Garmin practice: physical
/// activity is its own class and never stress.
public enum StressState: String, CaseIterable, Sendable, Codable {
    /// Vagal activity at or near the resting baseline.
    case rest
    /// ln RMSSD below the baseline, but not (yet) a sustained stress episode.
    case elevated
    /// A sustained episode: ln RMSSD well below baseline with heart rate above resting.
    case stress
    /// Heart rate far above resting (exercise), or the recovery right after it.
    case activity
    /// No judgement: calibrating, window not yet filled, too many corrected beats, or no sensor
    /// contact.
    case unknown
}
