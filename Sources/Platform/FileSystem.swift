import Glibc

/// Paths on the file system: what is there, who may use it, and the few changes hrvmon makes.
public enum FileSystem {
    /// What access(2) is asked.
    public struct Access: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let read = Access(rawValue: R_OK)
        public static let write = Access(rawValue: W_OK)
        /// Run a file, or enter a directory.
        public static let execute = Access(rawValue: X_OK)
    }

    /// What stat(2) says of a path.
    public struct Status: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case regular, directory, other }
        public var kind: Kind
        public var owner: UInt32
        /// The permission bits (0o7777).
        public var permissions: UInt32
        public var size: Int
        /// Last change of the contents (st_mtim), nanoseconds since 1970.
        public var modified: Int64
        /// Last change of the contents or the inode, a `touch -d` of the mtime included (st_ctim).
        public var changed: Int64
        /// The inode's number (st_ino): a file replaced by another under the same name has another.
        public var inode: UInt64

        public init(kind: Kind, owner: UInt32, permissions: UInt32, size: Int, modified: Int64 = 0, changed: Int64 = 0, inode: UInt64 = 0) {
            self.kind = kind
            self.owner = owner
            self.permissions = permissions
            self.size = size
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }
    }

    public static func exists(_ path: String) -> Bool { Glibc.access(path, F_OK) == 0 }

    /// Whether this process may use `path` so; the reason when not.
    public static func check(_ path: String, _ access: Access) -> Errno? {
        Glibc.access(path, access.rawValue) == 0 ? nil : .current
    }

    public static func isAllowed(_ path: String, _ access: Access) -> Bool { check(path, access) == nil }

    /// A regular file (symbolic links followed) is at `path`.
    public static func isRegularFile(_ path: String) -> Bool { status(path)?.kind == .regular }

    /// nil when the path cannot be stat'ed (missing, or a directory on the way is not searchable).
    public static func status(_ path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind: Status.Kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        default: .other
        }
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }
        return Status(
            kind: kind, owner: info.st_uid, permissions: info.st_mode & 0o7777, size: Int(info.st_size),
            modified: nanoseconds(info.st_mtim), changed: nanoseconds(info.st_ctim), inode: UInt64(info.st_ino))
    }

    /// rename(2).
    public static func move(_ path: String, to destination: String) -> Errno? {
        rename(path, destination) == 0 ? nil : .current
    }

    /// unlink(2); a path that is already gone is no failure.
    public static func remove(_ path: String) -> Errno? {
        unlink(path) == 0 || errno == ENOENT ? nil : .current
    }

    /// mkdir(2) of one directory; one that exists already is no failure.
    public static func makeDirectory(_ path: String, permissions: UInt32) -> Errno? {
        mkdir(path, permissions) == 0 || errno == EEXIST ? nil : .current
    }

    public static func setPermissions(_ path: String, _ permissions: UInt32) -> Errno? {
        chmod(path, permissions) == 0 ? nil : .current
    }

    /// The paths that match a shell wildcard pattern (glob(3): `*`, `?`, `[…]`), sorted; none
    /// when nothing matches or a directory on the way cannot be read.
    public static func matching(_ pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
    }

    /// A file opened for appending, created with `permissions` if missing; with `exclusive`, only
    /// a new file (an existing one gives `Errno.fileExists`).
    public static func openForAppending(_ path: String, permissions: UInt32, exclusive: Bool) -> Result<Int32, Errno> {
        let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (exclusive ? O_EXCL : 0)
        let descriptor = open(path, flags, permissions)
        return descriptor >= 0 ? .success(descriptor) : .failure(.current)
    }
}
