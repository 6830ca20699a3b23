import Foundation
import HRV
import Platform
import SessionLog
import Testing
import UserData

/// The user's data directory, in a private XDG_DATA_HOME for this suite: session files made
/// privately and never overwritten, sessions found by id or prefix, the resting history kept
/// whole across saves, the last sensor remembered.
@Suite(.serialized) struct DataDirectoryTests {
    /// Runs `body` with XDG_DATA_HOME at a new, empty directory.
    private func inFreshDataHome(_ body: (String) throws -> Void) throws {
        let home = NSTemporaryDirectory() + "hrvmon-data-\(UUID().uuidString)"
        let previous = Environment.value("XDG_DATA_HOME")
        setenv("XDG_DATA_HOME", home, 1)
        defer {
            if let previous { setenv("XDG_DATA_HOME", previous, 1) } else { unsetenv("XDG_DATA_HOME") }
            try? FileManager.default.removeItem(atPath: home)
        }
        try body(home)
    }

    /// A closed session is `ID.jsonl.gz`: listed, found and named by its id. A crash while it
    /// was compressed leaves both files: the whole `.jsonl` is the one listed. `compress` leaves
    /// only the `.gz`, and `forms` names both for `delete`.
    @Test func compressedSessionsAreListedOnce() throws {
        try inFreshDataHome { _ in
            let plain = try SessionStore.create(start: 1_800_000_000)
            let closed = try SessionStore.create(start: 1_800_000_100)
            Descriptor.close(plain.descriptor)
            Descriptor.close(closed.descriptor)
            #expect(AtomicFile.write(Array("{}\n".utf8), to: closed.path) == nil)
            #expect(SessionStore.compress(closed.path) == nil)
            #expect(!FileSystem.exists(closed.path) && FileSystem.exists(closed.path + ".gz"))
            #expect(SessionStore.all() == [plain.path, closed.path + ".gz"])
            #expect(SessionStore.id(of: closed.path + ".gz") == closed.id)
            #expect(try SessionStore.find(closed.id) == closed.path + ".gz")
            // Both forms, as a crash between the rename and the unlink leaves them.
            #expect(AtomicFile.write(Array("{}\n".utf8), to: closed.path) == nil)
            #expect(SessionStore.all() == [plain.path, closed.path])
            #expect(SessionStore.forms(of: closed.path) == [closed.path, closed.path + ".gz"])
            #expect(SessionStore.forms(of: closed.path + ".gz") == [closed.path + ".gz", closed.path])
        }
    }

    @Test func sessionFilesArePrivateAndNeverReused() throws {
        try inFreshDataHome { home in
            let start = 1_800_000_000.0
            let first = try SessionStore.create(start: start)
            let second = try SessionStore.create(start: start)
            Descriptor.close(first.descriptor)
            Descriptor.close(second.descriptor)
            #expect(first.id == WallClock.compact(start))
            #expect(second.id == first.id + "-2", "a second session in the same second gets its own file")
            #expect(first.path == home + "/hrvmon/sessions/" + first.id + ".jsonl")
            #expect(FileSystem.status(first.path)?.permissions == 0o600)
            #expect(FileSystem.status(SessionStore.directory)?.permissions == 0o700)
            #expect(SessionStore.all() == [first.path, second.path])
        }
    }

    /// A recommending assessment is kept privately and read back whole; one without a rate is
    /// not kept at all.
    @Test func resonanceAssessmentKeptAndReadBack() throws {
        try inFreshDataHome { _ in
            func step(_ rate: Double, _ swing: Double, _ lf: Double, _ phase: Double) -> ResonanceStep {
                ResonanceStep(
                    rate: rate, beats: 90, breaths: 8, heartRateAmplitude: swing, lf: lf, lfPeak: rate / 60, phase: phase,
                    phaseConsistency: 1, smoothness: 0.95, unreliable: nil)
            }
            let clear = ResonanceResult(steps: [step(6.5, 10, 3000, -40), step(6, 16, 8000, 0), step(5.5, 11, 3500, 35)])
            #expect(try DataDirectory.resonance() == nil)
            let stored = try #require(StoredResonance(clear, date: "2026-11-20", session: "20261120-070000"))
            try DataDirectory.save(stored)
            #expect(FileSystem.status(DataDirectory.resonanceFile)?.permissions == 0o600)
            let read = try #require(try DataDirectory.resonance())
            #expect(read == stored)
            #expect(read.bestBPM == 6 && read.steps.map(\.bpm) == [6.5, 6, 5.5])
            let flat = ResonanceResult(steps: [step(6.5, 15, 8000, 0), step(6, 16, 8100, 0), step(5.5, 15, 7900, 0)])
            #expect(flat.best == nil)
            #expect(StoredResonance(flat, date: "2026-11-21", session: nil) == nil)
        }
    }

    @Test func anExplicitPathMustBeNewOrEmpty() throws {
        try inFreshDataHome { home in
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let empty = home + "/empty.jsonl"
            #expect(FileManager.default.createFile(atPath: empty, contents: nil))
            let opened = try SessionStore.create(explicit: empty)
            Descriptor.close(opened.descriptor)
            #expect(opened.id == "empty")
            let full = home + "/full.jsonl"
            #expect(FileManager.default.createFile(atPath: full, contents: Data("{}\n".utf8)))
            #expect(throws: DataDirectory.Failure.self) { try SessionStore.create(explicit: full) }
        }
    }

    @Test func sessionsAreFoundByIdPrefixOrPath() throws {
        try inFreshDataHome { _ in
            var paths: [String] = []
            for start: Double in [1_800_000_000, 1_800_000_000, 1_800_090_000] {
                let file = try SessionStore.create(start: start)
                Descriptor.close(file.descriptor)
                paths.append(file.path)
            }
            let ids = paths.map(SessionStore.id(of:))
            #expect(try SessionStore.find(ids[0]) == paths[0], "an exact id wins over the longer id it prefixes")
            #expect(try SessionStore.find(ids[1]) == paths[1])
            #expect(try SessionStore.find(String(ids[2].prefix(11))) == paths[2])
            do {
                _ = try SessionStore.find(String(ids[0].prefix(4)))
                Issue.record("an ambiguous prefix was accepted")
            } catch let error as DataDirectory.Failure {
                #expect(error.reason.contains("matches 3 sessions"))
            }
            #expect(try SessionStore.find(paths[2]) == paths[2])
            #expect(throws: DataDirectory.Failure.self) { try SessionStore.find(paths[2], acceptingPaths: false) }
            #expect(throws: DataDirectory.Failure.self) { try SessionStore.find("19990101") }
        }
    }

    /// "" is a start of every id: with one session it would name that one (`delete "$ID"` with
    /// ID unset). Empty and blank references are refused, whether paths are taken or not.
    @Test func anEmptyReferenceNamesNoSession() throws {
        try inFreshDataHome { _ in
            Descriptor.close(try SessionStore.create(start: 1_800_000_000).descriptor)
            for reference in ["", " ", "\n"] {
                for acceptingPaths in [true, false] {
                    let refused = #expect(throws: DataDirectory.Failure.self) { try SessionStore.find(reference, acceptingPaths: acceptingPaths) }
                    #expect(refused?.reason == "SESSION is empty: give a session id; `hrvmon sessions` lists them")
                }
            }
        }
    }

    @Test func theRestingHistoryIsKeptWholeAndAnUnreadableOneIsNamed() throws {
        try inFreshDataHome { _ in
            #expect(try DataDirectory.loadHistory() == BaselineHistory(), "no file yet is an empty history")
            let measurement = RestingMeasurement(day: "2026-11-20", lnRMSSD: 3.9, restingHR: 58, source: "test")
            try DataDirectory.updateHistory { $0.record(measurement) }
            #expect(try DataDirectory.loadHistory().measurements == [measurement])
            #expect(FileSystem.status(DataDirectory.baselineFile)?.permissions == 0o600)
            try DataDirectory.write(Data("not json".utf8), to: DataDirectory.baselineFile)
            do {
                _ = try DataDirectory.loadHistory()
                Issue.record("a corrupt history was read")
            } catch let error as DataDirectory.Failure {
                #expect(error.reason.contains("hrvmon baseline reset"))
            }
            try DataDirectory.deleteHistory()
            try DataDirectory.deleteHistory()
            #expect(try DataDirectory.loadHistory() == BaselineHistory())
        }
    }

    @Test func theLastSensorIsRemembered() throws {
        try inFreshDataHome { _ in
            #expect(DataDirectory.lastSensor() == nil)
            try DataDirectory.rememberSensor("A0:9E:1A:00:00:01")
            #expect(DataDirectory.lastSensor() == "A0:9E:1A:00:00:01")
        }
    }
}
