import Platform
import Recordings
import SessionLog
import UserData

/// The session index (docs/reference/session-index.md): `$XDG_DATA_HOME/hrvmon/session-index.jsonl`,
/// an entry per session file, so that `sessions`, `history` and the days report read one small
/// file instead of every session. It holds nothing that is not in a session file: an entry stands
/// while its file has the size, modification time and fingerprint it was made from, and is made
/// again (by reading the file) when the file changed or has none; entries of files gone are
/// dropped. An index that cannot be read (damaged, of another version) is moved aside to
/// `session-index.jsonl.bad` and rebuilt. Changes are written under a lock (`FileLock`), merged
/// into the index as it is then, so two processes updating it at once lose neither's entries.
public struct SessionIndex: Sendable {
    /// The index file, and the directory it is in (created when missing).
    public let path: String
    let directory: String

    public init(directory: String) {
        self.directory = directory
        path = directory + "/session-index.jsonl"
    }

    /// The user's: in the data directory, beside `sessions/`.
    public static var user: SessionIndex { SessionIndex(directory: DataDirectory.path) }

    var lockPath: String { directory + "/session-index.lock" }
    public var setAsidePath: String { path + ".bad" }

    /// The entries of `paths` (session files, in that order), each the index's own when it
    /// still matches its file, otherwise made from the file; a file that cannot be read is
    /// handed to `skipping` and left out. New entries are saved to the index, and entries of
    /// files no longer among the session files dropped.
    public func entries(of paths: [String], skipping: (RecordingError) -> Void) -> [IndexedSession] {
        let stored = Dictionary(load().map { ($0.key.path, $0) }, uniquingKeysWith: { $1 })
        var made: [IndexedSession] = []
        let entries = paths.compactMap { path -> IndexedSession? in
            do throws(RecordingError) {
                let key = try Self.currentKey(path, stored: stored[path]?.key)
                if var entry = stored[path], entry.key.sameContents(as: key) {
                    guard entry.key != key else { return entry }
                    // Same contents, the inode changed (chmod, touch back): kept, with the new times.
                    entry.key = key
                    made.append(entry)
                    return entry
                }
                let entry = try IndexedSession.read(path, key: key)
                made.append(entry)
                // A first listing of a year reads 22 GB: saved as it goes, an interrupted one
                // has not read in vain.
                if made.count == Self.savedEvery {
                    update(replacing: made, dropping: [])
                    made = []
                }
                return entry
            } catch {
                skipping(error)
                return nil
            }
        }
        let gone = stored.keys.filter { !FileSystem.isRegularFile($0) }
        if !made.isEmpty || !gone.isEmpty { update(replacing: made, dropping: Set(gone)) }
        return entries
    }

    /// New entries saved together while a listing makes many.
    static let savedEvery = 16

    /// Indexes a session that has just ended (its file closed, its summary written).
    public func add(_ path: String) {
        guard let key = try? Self.currentKey(path, stored: nil), let entry = try? IndexedSession.read(path, key: key) else { return }
        update(replacing: [entry], dropping: [])
    }

    /// Drops the entries of deleted session files.
    public func forget(_ paths: [String]) {
        update(replacing: [], dropping: Set(paths))
    }

    /// The key a file has now. The fingerprint is read only when the file's inode changed since
    /// `stored` was made (a `touch -d` or a restore can keep size and mtime); otherwise it is the
    /// stored one.
    static func currentKey(_ path: String, stored: IndexedSession.Key?) throws(RecordingError) -> IndexedSession.Key {
        guard let status = FileSystem.status(path), status.kind == .regular else {
            throw RecordingError(source: path, line: nil, problem: "cannot read: no such file")
        }
        var key = IndexedSession.Key(path: path, size: status.size, modified: status.modified, changed: status.changed, fingerprint: "")
        if let stored, stored.size == key.size, stored.modified == key.modified, stored.changed == key.changed {
            key.fingerprint = stored.fingerprint
            return key
        }
        do {
            key.fingerprint = IndexedSession.Key.fingerprint(try InputFile(opening: path).ends(IndexedSession.Key.fingerprintedBytes))
        } catch {
            throw RecordingError(source: path, line: nil, problem: error.reason)
        }
        return key
    }

    /// The index's entries; none when there is no index, and none (the index set aside) when it
    /// cannot be read.
    public func load() -> [IndexedSession] {
        guard let bytes = try? InputFile.read(path) else { return [] }
        do throws(IndexedSession.IndexError) {
            return try IndexedSession.parseIndex(bytes)
        } catch {
            // Only rebuilt from the files: setting it aside loses nothing, and keeps it to look at.
            _ = FileSystem.move(path, to: setAsidePath)
            return []
        }
    }

    /// Under the lock: the index as it is now, with `entries` in place of those of their paths
    /// and without those of `dropped`, written whole. An index that cannot be written is no
    /// failure of the command that reads it: the next run makes the entries again.
    public func update(replacing entries: [IndexedSession], dropping dropped: Set<String>) {
        guard (try? DataDirectory.makePrivateDirectory(directory)) != nil else { return }
        _ = try? FileLock.holding(lockPath) {
            let replaced = Set(entries.map(\.key.path))
            var merged = load().filter { !replaced.contains($0.key.path) && !dropped.contains($0.key.path) } + entries
            merged.sort { ($0.start, $0.key.path) < ($1.start, $1.key.path) }
            _ = AtomicFile.write(IndexedSession.indexBytes(merged), to: path)
        }
    }
}
