/// Why a beat was changed by artifact correction (Lipponen & Tarvainen 2019 classes, plus values
/// no heart can produce).
public enum ArtifactClass: String, CaseIterable, Sendable, Codable {
    /// A premature beat and its compensatory pause: the shared beat time is moved back in line.
    case ectopic
    /// A beat the sensor did not detect: the long interval is split in two.
    case missed
    /// A spurious detection: the short interval is merged with its neighbour.
    case extra
    /// A long or short interval that is neither of the above: re-timed between its neighbours.
    case longShort = "long_short"
    /// Outside the physiological range (`ArtifactCorrector.Configuration.plausibleRange`): kept in the
    /// timeline but left out of every metric, like a gap in the recording.
    case implausible
}
