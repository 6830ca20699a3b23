import Platform

/// A directory hrvmon writes to, as this user finds it. Observed with stat(2) and access(2),
/// never created.
public enum DirectoryState: Equatable {
    case directory(isWritable: Bool, owner: UInt32, mode: UInt32)
    case notADirectory
    /// Missing; `parent` is the nearest existing ancestor, which hrvmon would create it in.
    case missing(parent: String, isParentWritable: Bool)

    public static func observe(_ path: String) -> DirectoryState {
        guard let status = FileSystem.status(path) else {
            var parent = path
            repeat {
                parent = parent.lastIndex(of: "/").map { String(parent[..<$0]) } ?? ""
                if parent.isEmpty { parent = "/" }
            } while parent != "/" && !FileSystem.exists(parent)
            return .missing(parent: parent, isParentWritable: FileSystem.isAllowed(parent, [.write, .execute]))
        }
        guard status.kind == .directory else { return .notADirectory }
        return .directory(isWritable: FileSystem.isAllowed(path, [.write, .execute]), owner: status.owner, mode: status.permissions)
    }
}
