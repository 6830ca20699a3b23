import Platform
import UserData

/// What this machine knows it sent, per session: the last beat's sequence number, whether the
/// session had ended then, and the file as it was when everything chosen of it had been sent
/// (`$XDG_DATA_HOME/hrvmon/study/sent`, lines `ID SEQ complete|open`, followed by `SIZE MTIME
/// INODE CATEGORIES` once the file was sent whole). A cache for `show` and for not re-reading
/// sessions sent already; the server's rows decide.
struct SentState {
    struct Entry: Equatable {
        var lastSequence: Int
        var isComplete: Bool
        var file: FileMark? = nil
    }

    /// A session file as stat(2) saw it before it was read, and the categories sent of it then:
    /// while its size, modification time and inode stay so, it holds nothing more to send of
    /// those categories. hrvmon only appends to a session file (a `label` to an ended one too),
    /// which moves its size and time; compressing it makes another file (another inode).
    struct FileMark: Equatable {
        var size: Int
        var modified: Int64
        var inode: UInt64
        var categories: [String]

        /// The file at `path` now, to be sent of `categories`; nil when it cannot be stat'ed.
        init?(path: String, categories: [String]) {
            guard let status = FileSystem.status(path) else { return nil }
            self.init(size: status.size, modified: status.modified, inode: status.inode, categories: categories.sorted())
        }

        init(size: Int, modified: Int64, inode: UInt64, categories: [String]) {
            (self.size, self.modified, self.inode, self.categories) = (size, modified, inode, categories)
        }

        /// Whether a file marked so, sent of these categories, needs nothing sent of `now`'s:
        /// the same file, unchanged, and no category chosen since.
        func covers(_ now: FileMark) -> Bool {
            (size, modified, inode) == (now.size, now.modified, now.inode) && now.categories.allSatisfy(categories.contains)
        }

        var text: String { "\(size) \(modified) \(inode) \(categories.isEmpty ? "-" : categories.joined(separator: ","))" }

        init?(_ fields: ArraySlice<Substring>) {
            guard fields.count == 4, let size = Int(fields[fields.startIndex]), let modified = Int64(fields[fields.startIndex + 1]),
                let inode = UInt64(fields[fields.startIndex + 2])
            else { return nil }
            let categories = fields.last! == "-" ? [] : fields.last!.split(separator: ",").map(String.init)
            self.init(size: size, modified: modified, inode: inode, categories: categories)
        }
    }

    static var directory: String { DataDirectory.path + "/study" }
    static var file: String { directory + "/sent" }

    var entries: [String: Entry] = [:]

    static func load() -> SentState {
        var state = SentState()
        guard let bytes = try? InputFile.read(file) else { return state }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3 || fields.count == 7, let sequence = Int(fields[1]) else { continue }
            state.entries[String(fields[0])] = Entry(
                lastSequence: sequence, isComplete: fields[2] == "complete", file: fields.count == 7 ? FileMark(fields.dropFirst(3)) : nil)
        }
        return state
    }

    /// Records what was sent of session `id`.
    static func record(_ id: String, lastSequence: Int, isComplete: Bool) throws(StudyFailure) {
        try changing { state in
            // A sender that is behind another (it read its mark earlier) does not take it back.
            if let known = state.entries[id], known.lastSequence > lastSequence || (known.lastSequence == lastSequence && known.isComplete) { return }
            state.entries[id] = Entry(lastSequence: lastSequence, isComplete: isComplete, file: state.entries[id]?.file)
        }
    }

    /// Records that session `id`'s file, as `mark` saw it, has been sent whole (or holds nothing
    /// to send: recorded before consent).
    static func record(_ id: String, sentWhole mark: FileMark) throws(StudyFailure) {
        try changing { state in
            state.entries[id, default: Entry(lastSequence: -1, isComplete: false)].file = mark
        }
    }

    /// Forgets the sessions whose files are gone (`hrvmon delete`), so the state does not grow with
    /// every session ever sent. The files are listed under the lock: a session a `monitor` began
    /// meanwhile is on the list. An empty list (the data directory unreadable) forgets nothing.
    static func forgetDeleted() throws(StudyFailure) {
        try changing { state in
            let present = Set(SessionStore.all().map(SessionStore.id(of:)))
            if !present.isEmpty { state.entries = state.entries.filter { present.contains($0.key) } }
        }
    }

    /// Forgets everything sent: the server's copy was erased.
    static func forgetAll() throws(StudyFailure) {
        try changing { $0.entries = [:] }
    }

    /// Reads, changes and writes the file under a lock: two processes sending at once (a `study
    /// sync` and a `monitor`, or two syncs) each do, and without it one could write over the
    /// other's line.
    private static func changing(_ change: (inout SentState) -> Void) throws(StudyFailure) {
        do {
            // The lock's file is in the directory too.
            try DataDirectory.makePrivateDirectory(directory)
            try FileLock.holding(file + ".lock") {
                var state = load()
                change(&state)
                try state.save()
            }
        } catch let failure as StudyFailure {
            throw failure
        } catch {
            throw .file("\(file): \(error)")
        }
    }

    private func save() throws(StudyFailure) {
        let text = entries.keys.sorted().map { id in
            let entry = entries[id]!
            return "\(id) \(entry.lastSequence) \(entry.isComplete ? "complete" : "open")\(entry.file.map { " " + $0.text } ?? "")\n"
        }.joined()
        try Membership.store(text, at: Self.file, in: Self.directory)
    }
}
