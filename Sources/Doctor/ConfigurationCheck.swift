/// Is the configuration file, if any, valid?
public struct ConfigurationCheck: DoctorCheck {
    public enum Outcome: Equatable {
        /// The default file does not exist: every setting has its default.
        case absent
        case valid
        /// Why not, naming the file, line and key.
        case invalid(String)
    }

    public var path: String
    public var outcome: Outcome

    public var check: String { "config" }
    public var title: String { "Configuration" }

    public var finding: Finding {
        switch outcome {
        case .absent: verdict(.ok, "no configuration file (\(path)): every setting has its default")
        case .valid: verdict(.ok, "\(path) is valid")
        case .invalid(let reason):
            verdict(.fail, reason, fix: "`hrvmon config` lists every key with its allowed values; `hrvmon config --template` prints a valid file to start from")
        }
    }

    public init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }
}
