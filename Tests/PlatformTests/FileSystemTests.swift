import Foundation
import Platform
import Synchronization
import Testing

@Suite struct FileSystemTests {
    private func scratch() -> String {
        let path = NSTemporaryDirectory() + "platform-\(UUID().uuidString)"
        #expect(FileSystem.makeDirectory(path, permissions: 0o700) == nil)
        return path
    }

    @Test func statusTellsKindOwnerPermissionsAndSize() throws {
        let directory = scratch()
        let file = directory + "/a"
        var stream = try OutputFile.create(file, mode: 0o600)
        stream.write("12345")
        stream.close()
        let status = try #require(FileSystem.status(file))
        #expect(status == FileSystem.Status(
            kind: .regular, owner: CurrentUser.id, permissions: 0o600, size: 5, modified: status.modified, changed: status.changed, inode: status.inode))
        #expect(status.inode != 0)
        #expect(FileSystem.status(directory)?.kind == .directory)
        #expect(FileSystem.status(directory)?.permissions == 0o700)
        #expect(FileSystem.status(directory + "/missing") == nil)
    }

    /// The session index keys its entries by these: a `touch -d` back to the old time keeps
    /// the mtime but moves the ctime on.
    @Test func statusTellsModificationAndChangeTimesInNanoseconds() throws {
        let file = scratch() + "/a"
        var stream = try OutputFile.create(file, mode: 0o600)
        stream.write("12345")
        stream.close()
        let before = try #require(FileSystem.status(file))
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        #expect(abs(before.modified - now) < 60_000_000_000 && abs(before.changed - now) < 60_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000.25)], ofItemAtPath: file)
        let after = try #require(FileSystem.status(file))
        #expect(after.modified == 1_000_000_000_250_000_000)
        #expect(after.changed >= before.changed && after.changed != after.modified)
    }

    @Test func endsAreTheFirstAndLastBytes() throws {
        let file = scratch() + "/a"
        let bytes = (0..<1000).map { UInt8($0 % 251) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(try InputFile(opening: file).ends(100) == Array(bytes[..<100] + bytes[900...]))
        #expect(try InputFile(opening: file).ends(600) == Array(bytes[..<600] + bytes[400...]), "overlapping")
        #expect(try InputFile(opening: file).ends(2000) == bytes + bytes, "shorter than a part: whole, twice")
    }

    /// A second holder waits until the first lets go: never both inside at once.
    @Test func fileLockKeepsASecondHolderOutUntilTheFirstIsDone() throws {
        let lock = scratch() + "/lock"
        let inside = Mutex(0)
        let overlapped = Mutex(false)
        let first = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? FileLock.holding(lock) {
                first.signal()
                inside.withLock { $0 += 1 }
                // Time for the second to get in, were it not kept out.
                Thread.sleep(forTimeInterval: 0.5)
                inside.withLock { $0 -= 1 }
            }
            done.signal()
        }
        first.wait()
        try FileLock.holding(lock) { overlapped.withLock { $0 = inside.withLock { $0 } > 0 } }
        done.wait()
        #expect(!overlapped.withLock { $0 })
    }

    @Test func existingDirectoriesAndMissingFilesAreNoFailure() {
        let directory = scratch()
        #expect(FileSystem.makeDirectory(directory, permissions: 0o700) == nil)
        #expect(FileSystem.remove(directory + "/never-there") == nil)
        #expect(FileSystem.makeDirectory(directory + "/no/such/parent", permissions: 0o700) == .noSuchFile)
        #expect(FileSystem.remove(directory) != nil, "unlink of a directory fails")
    }

    @Test func exclusiveCreationRefusesAnExistingFile() throws {
        let path = scratch() + "/session.jsonl"
        let first = try FileSystem.openForAppending(path, permissions: 0o600, exclusive: true).get()
        Descriptor.close(first)
        #expect(FileSystem.openForAppending(path, permissions: 0o600, exclusive: true) == .failure(.fileExists))
        let again = try FileSystem.openForAppending(path, permissions: 0o600, exclusive: false).get()
        Descriptor.close(again)
        #expect(FileSystem.check(path, .read) == nil)
        #expect(FileSystem.isAllowed(path, .execute) == false)
    }

    @Test func atomicWritesReplaceWholeAndLeaveNoTemporaryFile() throws {
        let directory = scratch()
        let path = directory + "/baseline.json"
        #expect(AtomicFile.write(Array("old".utf8), to: path) == nil)
        #expect(AtomicFile.write(Array("new contents".utf8), to: path) == nil)
        #expect(try InputFile.read(path) == Array("new contents".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["baseline.json"])
        #expect(AtomicFile.write([1], to: directory + "/missing/x") == .noSuchFile)
    }

    @Test func openFailuresNameThePathTheActionAndTheReason() {
        #expect(throws: FileOpenError.self) { try InputFile.read("/nonexistent/rr.txt") }
        do {
            _ = try OutputFile.create("/nonexistent/out.csv")
            Issue.record("created a file in a missing directory")
        } catch {
            #expect(error.description == "/nonexistent/out.csv: cannot create: No such file or directory")
        }
    }

    @Test func errnoIsDescribedAsTheCLibraryWordsIt() {
        #expect(Errno.noSuchFile.description == "No such file or directory")
        #expect(Errno.permissionDenied.description == "Permission denied")
    }
}
