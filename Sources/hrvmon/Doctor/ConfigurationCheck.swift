import Platform
/// Is the configuration file, if any, valid?
struct ConfigurationCheck: DoctorCheck {
    enum Outcome: Equatable {
        /// The default file does not exist: every setting has its default.
        case absent
        case valid
        /// Why not, naming the file, line and key.
        case invalid(String)
    }

    var path: String
    var outcome: Outcome

    var check: String { "config" }
    var title: String { "Configuration" }

    var finding: Finding {
        switch outcome {
        case .absent: verdict(.ok, "no configuration file (\(path)): every setting has its default")
        case .valid: verdict(.ok, "\(path) is valid")
        case .invalid(let reason):
            verdict(.fail, reason, fix: "`hrvmon config` lists every key with its allowed values; `hrvmon config --template` prints a valid file to start from")
        }
    }
}
