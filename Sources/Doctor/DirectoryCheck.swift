
/// Can hrvmon write where it keeps the user's data or configuration?
public struct DirectoryCheck: DoctorCheck {
    public enum Role {
        /// Heart data: should be private to the user (hrvmon creates it 0700).
        case data
        case config
    }

    public var role: Role
    public var path: String
    public var state: DirectoryState
    public var user: String
    public var userID: UInt32

    public var check: String { role == .data ? "data_directory" : "config_directory" }
    public var title: String { role == .data ? "Data directory" : "Config directory" }

    public var finding: Finding {
        switch state {
        case .notADirectory:
            return verdict(.fail, "\(path) exists but is not a directory", fix: "move it away: `mv \(path) \(path).old`")
        case .missing(let parent, true):
            return verdict(.ok, "\(path) does not exist yet; hrvmon creates it in \(parent), which is writable")
        case .missing(let parent, false):
            return verdict(
                .fail, "\(path) does not exist, and \(parent) is not writable for \(user)",
                fix: "`sudo install -d -o \(user) -m 700 \(path)`")
        case .directory(false, let owner, _) where owner != userID:
            return verdict(
                .fail, "\(path) belongs to uid \(owner), not to \(user) (uid \(userID)): was hrvmon run with sudo?",
                fix: "`sudo chown -R \(user): \(path)`")
        case .directory(false, _, let mode):
            return verdict(.fail, "\(path) is not writable (mode \(Self.octal(mode)))", fix: "`chmod u+rwx \(path)`")
        case .directory(true, _, let mode) where role == .data && mode & 0o077 != 0:
            return verdict(
                .warn, "\(path) is writable, but other users may read it (mode \(Self.octal(mode))): it holds your heart data",
                fix: "`chmod 700 \(path)`")
        case .directory(true, _, _):
            return verdict(.ok, "\(path) is writable")
        }
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    public init(role: Role, path: String, state: DirectoryState, user: String, userID: UInt32) {
        self.role = role
        self.path = path
        self.state = state
        self.user = user
        self.userID = userID
    }
}
