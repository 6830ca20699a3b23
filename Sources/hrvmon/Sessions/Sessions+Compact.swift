import Analysis
import ArgumentParser
import Platform
import Presentation
import UserData

extension Sessions {
    /// `--compact`: every ended session recorded before format version 2 rewritten as version 2
    /// and compressed, each old file removed only once its new one has been read back and found
    /// the same (`SessionCompaction`); sessions already compact, or not ended, are left as they are.
    func compactAll() throws {
        var compacted = 0
        var before = 0
        var after = 0
        var failed = false
        for path in SessionStore.all() where path.hasSuffix(SessionStore.fileExtension) {
            let id = SessionStore.id(of: path)
            do {
                switch try SessionCompaction.compact(path) {
                case .compacted(let old, let new):
                    compacted += 1
                    before += old
                    after += new
                    print("\(id): \(Self.megabytes(old)) → \(Self.megabytes(new))")
                case .skipped(let reason):
                    print("\(id): left as it is: \(reason)")
                }
            } catch {
                FileStream.printError("hrvmon: \(error)")
                failed = true
            }
        }
        print("compacted \(Formatting.count(compacted, "session"))" + (compacted > 0 ? ": \(Self.megabytes(before)) → \(Self.megabytes(after))" : ""))
        if failed { throw ExitCode(1) }
    }

    private static func megabytes(_ bytes: Int) -> String {
        Formatting.fixed(Double(bytes) / 1_000_000, digits: 2) + " MB"
    }
}
