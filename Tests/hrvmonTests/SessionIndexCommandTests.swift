import Foundation
import TestSupport
import Testing

/// `sessions`, `history`, `report --days` and `delete` through the session index: the same output
/// whether the index is there, missing, cut short or garbled, and entries that follow their files.
@Suite struct SessionIndexCommandTests {
    /// A data directory with three sessions: one ended yesterday, one with a torn last line two
    /// days ago, and one still recording (no summary) started an hour ago.
    static func home() throws -> (home: String, ids: [String]) {
        let home = Hrvmon.freshHome()
        let sessions = home + "/data/hrvmon/sessions"
        try FileManager.default.createDirectory(atPath: sessions, withIntermediateDirectories: true)
        let format = DateFormatter()
        format.dateFormat = "yyyyMMdd-HHmmss"
        format.timeZone = .current
        let now = Date().timeIntervalSince1970
        let fixtures = [(2 * 86_400.0, true, true), (86_400, true, false), (3600, false, false)].map { back, summary, torn in
            let start = (now - back).rounded()
            return SessionFixture(id: format.string(from: Date(timeIntervalSince1970: start)), start: start, summary: summary, tornTail: torn)
        }
        for fixture in fixtures { try fixture.text.write(toFile: sessions + "/\(fixture.id).jsonl", atomically: false, encoding: .utf8) }
        return (home, fixtures.map(\.id))
    }

    static func run(_ arguments: [String], in home: String) throws -> Hrvmon.Result {
        try Hrvmon.run(arguments, environment: ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"])
    }

    /// What each command says, the days report from its figures to its table of sessions (the
    /// page's footer has the time it was made).
    static func outputs(in home: String) throws -> [String] {
        var outputs = try [["sessions"], ["sessions", "--format", "json"], ["sessions", "--format", "csv"], ["sessions", "--days", "2"],
                           ["history", "--days", "7"], ["history", "--days", "7", "--format", "json"]].map { arguments in
            let result = try run(arguments, in: home)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout + result.stderr
        }
        let page = home + "/days.html"
        let report = try run(["report", "--days", "7", "--output", page], in: home)
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let body = try #require(html.range(of: "<h2>Resting values</h2>").map { html[$0.lowerBound...] })
        outputs.append(String(try #require(body.range(of: "</table>").map { body[..<$0.upperBound] })))
        return outputs
    }

    static func indexPath(_ home: String) -> String { home + "/data/hrvmon/session-index.jsonl" }

    static func indexedPaths(_ home: String) throws -> [String] {
        try String(contentsOfFile: indexPath(home), encoding: .utf8).split(separator: "\n").compactMap {
            let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            return object?["type"] as? String == "session" ? object?["path"] as? String : nil
        }
    }

    @Test func outputIsTheSameWithTheIndexWithoutItAndWithADamagedOne() throws {
        let (home, ids) = try Self.home()
        let fromFiles = try Self.outputs(in: home)
        #expect(try Self.indexedPaths(home).count == 3, "made by the first run")
        #expect(fromFiles[0].contains(ids[2] + "*") && fromFiles[0].contains("* no summary line yet"), "still recording: \(fromFiles[0])")
        #expect(fromFiles[1].contains("\"beats\":600") && fromFiles[1].contains("\"ended\":false"))
        #expect(fromFiles[4].split(separator: "\n").count > 7 && fromFiles[6].contains(ids[0]))
        #expect(try Self.outputs(in: home) == fromFiles, "from the index")

        try FileManager.default.removeItem(atPath: Self.indexPath(home))
        #expect(try Self.outputs(in: home) == fromFiles, "index deleted")
        #expect(try Self.indexedPaths(home).count == 3)

        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.indexPath(home)))
        for damaged in [whole.prefix(whole.count / 2), Data("garbage\n".utf8) + whole, Data(whole.reversed())] {
            try damaged.write(to: URL(fileURLWithPath: Self.indexPath(home)))
            #expect(try Self.outputs(in: home) == fromFiles, "damaged index")
            #expect(try Data(contentsOf: URL(fileURLWithPath: Self.indexPath(home))) == whole, "rebuilt")
            #expect(FileManager.default.fileExists(atPath: Self.indexPath(home) + ".bad"))
        }
    }

    /// A session is indexed as it ends: the listing after it has nothing to read.
    @Test func aSavedSessionIsIndexedAsItEnds() throws {
        let home = Hrvmon.freshHome()
        let demo = try Self.run(["demo", "--speed", "1000", "--duration", "30", "--save", "--format", "jsonl"], in: home)
        #expect(demo.status == 0, "\(demo.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: home + "/data/hrvmon/sessions")
        #expect(try Self.indexedPaths(home) == files.map { home + "/data/hrvmon/sessions/" + $0 })
        let index = try String(contentsOfFile: Self.indexPath(home), encoding: .utf8)
        #expect(index.contains("\"ended\":true"))
    }

    @Test func entriesFollowTheirFiles() throws {
        let (home, ids) = try Self.home()
        let sessions = home + "/data/hrvmon/sessions/"
        _ = try Self.run(["sessions"], in: home)
        // The session still recording takes a note: appended, its entry is made again.
        let handle = try #require(FileHandle(forWritingAtPath: sessions + ids[2] + ".jsonl"))
        handle.seekToEndOfFile()
        handle.write(Data("{\"type\":\"note\",\"t\":\(Date().timeIntervalSince1970),\"text\":\"appended later\"}\n".utf8))
        try handle.close()
        #expect(try Self.run(["sessions"], in: home).stdout.contains("note: appended later"))

        try FileManager.default.removeItem(atPath: sessions + ids[0] + ".jsonl")
        let listed = try Self.run(["sessions"], in: home)
        #expect(!listed.stdout.contains(ids[0]) && listed.stdout.contains(ids[1]))
        #expect(try Self.indexedPaths(home) == [ids[1], ids[2]].map { sessions + $0 + ".jsonl" })

        let deleted = try Self.run(["delete", "--session", ids[1], "--yes"], in: home)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try Self.indexedPaths(home) == [sessions + ids[2] + ".jsonl"], "delete drops its entry")
    }
}
