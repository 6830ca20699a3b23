import Glibc

/// A directory hrvmon writes to, as this user finds it. Observed with stat(2) and access(2),
/// never created.
enum DirectoryState: Equatable {
    case directory(isWritable: Bool, owner: uid_t, mode: mode_t)
    case notADirectory
    /// Missing; `parent` is the nearest existing ancestor, which hrvmon would create it in.
    case missing(parent: String, isParentWritable: Bool)

    static func observe(_ path: String) -> DirectoryState {
        var info = stat()
        guard stat(path, &info) == 0 else {
            var parent = path
            repeat {
                parent = parent.lastIndex(of: "/").map { String(parent[..<$0]) } ?? ""
                if parent.isEmpty { parent = "/" }
            } while parent != "/" && access(parent, F_OK) != 0
            return .missing(parent: parent, isParentWritable: access(parent, W_OK | X_OK) == 0)
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return .notADirectory }
        return .directory(isWritable: access(path, W_OK | X_OK) == 0, owner: info.st_uid, mode: info.st_mode & 0o7777)
    }
}
