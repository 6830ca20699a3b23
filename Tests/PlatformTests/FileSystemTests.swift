import Foundation
import Platform
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
        #expect(FileSystem.status(file) == FileSystem.Status(kind: .regular, owner: CurrentUser.id, permissions: 0o600, size: 5))
        #expect(FileSystem.status(directory)?.kind == .directory)
        #expect(FileSystem.status(directory)?.permissions == 0o700)
        #expect(FileSystem.status(directory + "/missing") == nil)
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
