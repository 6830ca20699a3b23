/// What the body is doing in the latest window. Besides rest and stress, the detector names the
/// states that look like stress to an RMSSD rule but are not (after Firstbeat/Garmin practice,
/// where physical activity is its own class): exercise, the recovery after it, slow paced
/// breathing and a change of posture.
public enum StressState: String, CaseIterable, Sendable, Codable {
    /// Vagal activity at or near the resting reference.
    case rest
    /// ln RMSSD below the reference, but not (yet) a sustained stress episode.
    case elevated
    /// A sustained episode: ln RMSSD well below the reference with heart rate above it.
    case stress
    /// Heart rate far above the reference: exercise.
    case activity
    /// After exercise, until heart rate and RMSSD are back near the reference: heart rate stays
    /// up and RMSSD suppressed for 10–60 minutes (Stanley et al. 2013; Michael et al. 2017).
    case recovery
    /// Slow, regular breathing (≤ 9/min) dominating the RR spectrum: a breathing exercise.
    case pacedBreathing = "paced_breathing"
    /// Heart rate stepped abruptly (standing up with its overshoot, or sitting/lying down): the
    /// reference is measured afresh in the new posture before anything is judged.
    case posture
    /// No judgement: calibrating, window not yet filled, too many corrected beats, or no sensor
    /// contact.
    case unknown
}
