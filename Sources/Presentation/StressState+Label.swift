import HRV

extension StressState {
    /// How the dashboard and text summaries name the state.
    public var label: String {
        switch self {
        case .pacedBreathing: "paced breathing"
        default: rawValue
        }
    }

    /// What a state that is not judged for stress means, for the dashboard's state line.
    public var explanation: String? {
        switch self {
        case .unknown: "no judgement: the window is filling, too many beats were corrected, or no skin contact"
        case .activity: "physical activity, not stress"
        case .recovery: "recovering from exercise: heart rate up and RMSSD down for a while is normal"
        case .pacedBreathing: "slow, even breathing: the large heart-rate swings are the breath, not stress"
        case .posture: "heart rate stepped (posture change): measuring your rest in the new posture"
        case .rest, .elevated, .stress: nil
        }
    }
}
