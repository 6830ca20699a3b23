import Platform

/// Can hrvmon write where it keeps the user's data or configuration?
struct DirectoryCheck: DoctorCheck {
    enum Role {
        /// Heart data: should be private to the user (hrvmon creates it 0700).
        case data
        case config
    }

    var role: Role
    var path: String
    var state: DirectoryState
    var user: String
    var userID: UInt32

    var check: String { role == .data ? "data_directory" : "config_directory" }
    var title: String { role == .data ? "Data directory" : "Config directory" }

    var finding: Finding {
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
}
