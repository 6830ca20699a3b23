import FoundationEssentials
import Platform
import SessionLog

/// The session files: `$XDG_DATA_HOME/hrvmon/sessions/ID.jsonl`, `ID.jsonl.gz` once closed, the id being the local start time
/// `YYYYMMDD-HHMMSS` (with `-2`, `-3`… when two start in the same second). 0600 files in 0700
/// directories; created exclusively, so a session never overwrites or mixes into another.
public enum SessionStore {
    public static var directory: String { DataDirectory.path + "/sessions" }

    public static let fileExtension = ".jsonl"
    /// A closed session's file, compressed (`compress`).
    public static let compressedExtension = ".jsonl.gz"

    public struct OpenedFile {
        public var descriptor: Int32
        public var path: String
        public var id: String
    }

    /// A new session file in the sessions directory, named by `start`.
    public static func create(start: Double) throws(DataDirectory.Failure) -> OpenedFile {
        try DataDirectory.makePrivateDirectory(directory)
        let base = WallClock.compact(start)
        for attempt in 1...100 {
            let id = attempt == 1 ? base : "\(base)-\(attempt)"
            let path = directory + "/" + id + fileExtension
            switch FileSystem.openForAppending(path, permissions: 0o600, exclusive: true) {
            case .success(let descriptor): return OpenedFile(descriptor: descriptor, path: path, id: id)
            case .failure(.fileExists): continue
            case .failure(let failure): throw DataDirectory.Failure(path: path, reason: failure.description)
            }
        }
        throw DataDirectory.Failure(path: directory, reason: "100 sessions already started in this second")
    }

    /// The file `--log PATH` names: a new or empty file, or a device or pipe (/dev/stdout). An
    /// existing non-empty file is refused: sessions are never appended to one another.
    public static func create(explicit path: String) throws(DataDirectory.Failure) -> OpenedFile {
        if let status = FileSystem.status(path), status.kind == .regular, status.size > 0 {
            throw DataDirectory.Failure(path: path, reason: "already exists and is not empty; a session file holds one session: choose a new path")
        }
        switch FileSystem.openForAppending(path, permissions: 0o600, exclusive: false) {
        case .success(let descriptor): return OpenedFile(descriptor: descriptor, path: path, id: id(of: path))
        case .failure(let failure): throw DataDirectory.Failure(path: path, reason: failure.description)
        }
    }

    /// Session files in the sessions directory, oldest first; with `since`, only those whose id
    /// (which begins with the local start date, YYYYMMDD) is not older, so older files need not be
    /// read. Files named otherwise are always included.
    /// A session is in one file, `ID.jsonl` or (closed) `ID.jsonl.gz`; when a crash while it was
    /// compressed left both, the `.jsonl` is listed: it is the whole session, whatever the other holds.
    public static func all(since day: CalendarDay? = nil) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let first = day?.text.filter { $0 != "-" } ?? ""
        let sessions = names.filter { isSessionName($0) && $0 >= first }
        let plain = Set(sessions.filter { $0.hasSuffix(fileExtension) })
        // Each name's order made once, not at every comparison: a year's listing sorts 365.
        return sessions.filter { !$0.hasSuffix(compressedExtension) || !plain.contains(String($0.dropLast(3))) }
            .map { (name: $0, order: startOrder(id(of: $0))) }
            .sorted { $0.order < $1.order }.map { directory + "/" + $0.name }
    }

    private static func isSessionName(_ name: String) -> Bool {
        name.hasSuffix(fileExtension) || name.hasSuffix(compressedExtension)
    }

    /// Compresses a closed session's file `path` (`ID.jsonl`) into `ID.jsonl.gz`, whole or not at
    /// all (written beside it, synced, renamed), then removes `path`. A crash between the two
    /// leaves both, and `all` lists the `.jsonl`; on a failure `path` stays as it is.
    public static func compress(_ path: String) -> FileOpenError? {
        if let failure = Gzip.compress(path, to: path + ".gz") { return failure }
        return FileSystem.remove(path).map { FileOpenError(path: path, reason: $0.description, action: "remove") }
    }

    /// The files a session may be in: `path` and its other form (`.jsonl` and `.jsonl.gz`), for
    /// `delete`, which removes both.
    public static func forms(of path: String) -> [String] {
        if path.hasSuffix(compressedExtension) { return [path, String(path.dropLast(3))] }
        if path.hasSuffix(fileExtension) { return [path, path + ".gz"] }
        return [path]
    }

    /// A session by id (or a unique prefix of one), or by path when `acceptingPaths`: every
    /// command resolves SESSION so. A reference is a path when it has a `/` or the session
    /// files' extension, or names an existing file (`day.txt` in the current directory). An
    /// empty one is refused: as a prefix it would match every session (an unset `$ID`).
    public static func find(_ reference: String, acceptingPaths: Bool = true) throws(DataDirectory.Failure) -> String {
        if reference.trimming(.spacesAndNewlines).isEmpty {
            throw DataDirectory.Failure(path: directory, reason: "SESSION is empty: give a session id; `hrvmon sessions` lists them")
        }
        if reference.contains("/") || isSessionName(reference) || (acceptingPaths && FileSystem.isRegularFile(reference)) {
            guard acceptingPaths else {
                throw DataDirectory.Failure(path: reference, reason: "not a session id; `hrvmon sessions` lists them (only sessions in \(directory) are deleted)")
            }
            if let failure = FileSystem.check(reference, .read) { throw DataDirectory.Failure(path: reference, reason: "cannot read: \(failure)") }
            return reference
        }
        let matches = all().filter { id(of: $0).hasPrefix(reference) }
        if let exact = matches.first(where: { id(of: $0) == reference }) { return exact }
        switch matches.count {
        case 1: return matches[0]
        case 0 where acceptingPaths:
            throw DataDirectory.Failure(path: reference, reason: "no such file, nor a session of that id in \(directory); `hrvmon sessions` lists them")
        case 0: throw DataDirectory.Failure(path: directory, reason: "no session '\(reference)'; `hrvmon sessions` lists them")
        default: throw DataDirectory.Failure(path: directory, reason: "'\(reference)' matches \(matches.count) sessions: \(matches.map(id(of:)).joined(separator: ", "))")
        }
    }

    /// Sessions in the order they started: by start time, then by the `-N` a second session in
    /// the same second gets (plain text order would put `…-2` before its first).
    static func startOrder(_ id: String) -> (String, Int) {
        let start = String(id.prefix(15))
        let suffix = id.dropFirst(15)
        return suffix.first == "-" ? (start, Int(suffix.dropFirst()) ?? 0) : (id, 1)
    }

    public static func id(of path: String) -> String {
        let name = lastComponent(of: path)
        for suffix in [compressedExtension, fileExtension] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// `a/b.jsonl` → `b.jsonl`, ignoring repeated and trailing slashes (`a//b/` → `b`): as
    /// Foundation's `NSString.lastPathComponent` had it, which also named `//` "" (and crashed
    /// on some paths with repeated slashes, such as `x//é`).
    private static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? (path == "/" ? "/" : "")
    }
}
